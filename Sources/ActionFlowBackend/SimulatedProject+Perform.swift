import ActionFlowModel

extension SimulatedProject {
    /// One Identity Toolkit call on this project, as a client makes it.
    public mutating func perform(_ call: AuthCall) throws(AuthFailure) -> AuthReply {
        switch call {
        case .signUp(let request): .signedIn(try signUp(request))
        case .signInWithPassword(let request): .signedIn(try signInWithPassword(request))
        case .sendOobCode(let request, let locale): .oobCodeSent(try sendOobCode(request, locale: locale))
        case .resetPassword(let request): .passwordReset(try resetPassword(request))
        case .update(let request): .updated(try update(request))
        case .lookup(let request): .lookedUp(try lookup(request))
        case .signInWithEmailLink(let request): .signedIn(try signInWithEmailLink(request))
        case .startMfaEnrollment(let request): .mfaEnrollmentStarted(try startMfaEnrollment(request))
        case .finalizeMfaEnrollment(let request): .mfaEnrolled(try finalizeMfaEnrollment(request))
        }
    }
}
