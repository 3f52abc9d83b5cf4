import ActionFlowModel
import ActionFlowTransport

/// Each Identity Toolkit call by name with its typed response, for tests that make one call and
/// read its answer. Every one goes through `perform`, the transport's only way to call.
extension AuthTransport {
    public func signUp(_ request: SignUpRequest) async throws(AuthFailure) -> SignInResponse {
        try await answer(.signUp(request)) { if case .signedIn(let response) = $0 { response } else { nil } }
    }

    public func signInWithPassword(_ request: SignInWithPasswordRequest) async throws(AuthFailure) -> SignInResponse {
        try await answer(.signInWithPassword(request)) { if case .signedIn(let response) = $0 { response } else { nil } }
    }

    public func sendOobCode(_ request: SendOobCodeRequest, locale: String?) async throws(AuthFailure) -> SendOobCodeResponse {
        try await answer(.sendOobCode(request, locale: locale)) { if case .oobCodeSent(let response) = $0 { response } else { nil } }
    }

    public func resetPassword(_ request: ResetPasswordRequest) async throws(AuthFailure) -> ResetPasswordResponse {
        try await answer(.resetPassword(request)) { if case .passwordReset(let response) = $0 { response } else { nil } }
    }

    public func update(_ request: UpdateAccountRequest) async throws(AuthFailure) -> UpdateAccountResponse {
        try await answer(.update(request)) { if case .updated(let response) = $0 { response } else { nil } }
    }

    public func lookup(_ request: LookupRequest) async throws(AuthFailure) -> LookupResponse {
        try await answer(.lookup(request)) { if case .lookedUp(let response) = $0 { response } else { nil } }
    }

    public func signInWithEmailLink(_ request: SignInWithEmailLinkRequest) async throws(AuthFailure) -> SignInResponse {
        try await answer(.signInWithEmailLink(request)) { if case .signedIn(let response) = $0 { response } else { nil } }
    }

    public func startMfaEnrollment(_ request: StartMfaEnrollmentRequest) async throws(AuthFailure) -> StartMfaEnrollmentResponse {
        try await answer(.startMfaEnrollment(request)) { if case .mfaEnrollmentStarted(let response) = $0 { response } else { nil } }
    }

    public func finalizeMfaEnrollment(_ request: FinalizeMfaEnrollmentRequest) async throws(AuthFailure) -> MfaTokensResponse {
        try await answer(.finalizeMfaEnrollment(request)) { if case .mfaEnrolled(let response) = $0 { response } else { nil } }
    }

    private func answer<Response>(_ call: AuthCall, _ pick: (AuthReply) -> Response?) async throws(AuthFailure) -> Response {
        let reply = try await perform(call)
        guard let response = pick(reply) else {
            throw .network(.malformedResponse("\(call.operation.rawValue) answered with another operation's reply: \(reply)"))
        }
        return response
    }
}
