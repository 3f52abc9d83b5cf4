import ActionFlowModel
import Foundation

// Adding a phone as a second sign-in step, as the SDKs' `multiFactor(user).enroll` does:
// `mfaEnrollment:start` sends an SMS code, the phone reads it (the world lists the codes it sent,
// as the Auth Emulator does at `verificationCodes`), `mfaEnrollment:finalize` enrolls the factor
// and answers with new tokens, and the user is reloaded (firebase-js-sdk
// `packages/auth/src/mfa/mfa_user.ts:67-73`). A production project then emails a
// REVERT_SECOND_FACTOR_ADDITION link, whose page removes the factor again.
extension Session {
    mutating func reduceSecondFactor(_ event: AppEvent) -> [Effect] {
        switch event {
        case .secondFactorRequested(let phoneNumber):
            app.location = .app
            app.banner = nil
            guard let token = app.session?.idToken else {
                log(.refused(.secondFactorNeedsSignIn))
                app.banner = ErrorBanner(message: "Sign in before adding a second sign-in step", code: nil, retry: nil)
                return []
            }
            app.addingSecondFactor = SecondFactorEnrollment(phoneNumber: phoneNumber)
            return send(.startMfaEnrollment(StartMfaEnrollmentRequest(idToken: token, phoneEnrollmentInfo: PhoneEnrollmentInfo(phoneNumber: phoneNumber))), for: .addSecondFactor)
        case .textMessagesRead(let messages):
            app.busy.remove(.secondFactor)
            guard let adding = app.addingSecondFactor, let sessionInfo = adding.sessionInfo else { return [] }
            guard let message = messages.last(where: { $0.sessionInfo == sessionInfo }), let token = app.session?.idToken else {
                log(.refused(.noTextMessage(phoneNumber: adding.phoneNumber)))
                app.addingSecondFactor = nil
                return []
            }
            log(.textMessageArrived(phoneNumber: message.phoneNumber))
            let verification = PhoneVerificationInfo(sessionInfo: sessionInfo, code: message.code)
            return send(.finalizeMfaEnrollment(FinalizeMfaEnrollmentRequest(idToken: token, phoneVerificationInfo: verification)), for: .finishSecondFactor)
        default:
            return []
        }
    }

    /// The SMS code is on its way: the phone reads its messages.
    mutating func secondFactorCodeSent(_ request: StartMfaEnrollmentRequest, _ response: StartMfaEnrollmentResponse) -> [Effect] {
        guard let sessionInfo = response.phoneSessionInfo?.sessionInfo, app.addingSecondFactor != nil else {
            log(.reply(.unexpected(.startMfaEnrollment)))
            app.addingSecondFactor = nil
            return []
        }
        log(.reply(.secondFactorCodeSent(phoneNumber: request.phoneEnrollmentInfo?.phoneNumber ?? "")))
        app.addingSecondFactor?.sessionInfo = sessionInfo
        return start(.readTextMessages)
    }

    /// Enrolled: the new tokens replace the old, the user is reloaded, and the mailbox is read
    /// for the email a production project sends about the new factor.
    mutating func secondFactorEnrolled(_ response: MfaTokensResponse) -> [Effect] {
        log(.reply(.secondFactorEnrolled(phoneNumber: app.addingSecondFactor?.phoneNumber)))
        app.addingSecondFactor = nil
        app.session?.idToken = response.idToken
        return send(.lookup(LookupRequest(idToken: response.idToken)), for: .reloadAfterSecondFactor) + start(.refreshMailbox)
    }

    /// Whether `call` applies the code of a "second factor added" email in the inbox.
    func removesSecondFactor(_ call: AuthCall) -> Bool {
        guard case .update(let request) = call, let code = request.oobCode else { return false }
        return inbox.contains { $0.oobCode == code && $0.requestType == .revertSecondFactorAddition }
    }

    /// A sign-in that waits for a second factor, which this app does not ask for: it stays
    /// signed out and says why.
    mutating func secondFactorRequired(email: String?, factors: Int) -> [Effect] {
        log(.reply(.secondFactorRequired(email: email, factors: factors)))
        app.session = nil
        app.screen = .signIn
        if app.flow?.step == .signingIn { app.flow = nil }
        app.banner = ErrorBanner(message: "This account has a second sign-in step (SMS), which this app does not ask for", code: nil, retry: nil)
        return []
    }
}
