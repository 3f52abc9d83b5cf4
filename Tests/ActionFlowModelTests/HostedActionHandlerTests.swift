import ActionFlowModel
import Foundation
import Testing

/// The hosted action handler, mode by mode, as the interface's widget and serve's page run it.
@Suite("The hosted action handler, per mode")
struct HostedActionHandlerTests {
    static let handler = "https://demo-actionflow.firebaseapp.com/__/auth/action"
    static let continueURL = "https://www.example.com/articles/7?ref=mail"

    static func link(_ mode: String, code: String? = "CODE1", continueUrl: String? = continueURL, extra: String = "") -> String {
        var query = "mode=\(mode)"
        if let code { query += "&oobCode=\(code)" }
        query += "&apiKey=AIzaKey"
        if let continueUrl { query += "&continueUrl=\(PercentEncoding.encodeComponent(continueUrl))" }
        return "\(handler)?\(query)&lang=fr\(extra)"
    }

    @Test("resetPassword: checks the code, shows the form, keeps it on a weak password, saves, then offers Continue")
    func resetPassword() throws {
        var (page, load) = HostedActionHandler.open(actionURL: Self.link("resetPassword"))
        #expect(page.step == .loading)
        #expect(load == .checkResetCode(ResetPasswordRequest(oobCode: "CODE1")), "checking does not consume the code")
        #expect(page.submitNewPassword("too early") == nil, "no form before the code is checked")

        page.receive(.resetCodeChecked(ResetPasswordResponse(email: "bob@example.com", requestType: .passwordReset)))
        #expect(page.step == .resetForm(email: "bob@example.com", problem: nil))

        #expect(page.submitNewPassword("123") == .saveNewPassword(ResetPasswordRequest(oobCode: "CODE1", newPassword: "123")))
        #expect(page.step == .saving(email: "bob@example.com"))
        page.receive(.failed(.server(.weakPassword, detail: nil)))
        #expect(page.step == .resetForm(email: "bob@example.com", problem: "The password must be at least 6 characters long."))

        #expect(page.submitNewPassword("correct horse") == .saveNewPassword(ResetPasswordRequest(oobCode: "CODE1", newPassword: "correct horse")))
        page.receive(.passwordSaved(ResetPasswordResponse(email: "bob@example.com", requestType: .passwordReset)))
        guard case .done(let outcome) = page.step else {
            Issue.record("expected the done step, got \(page.step)")
            return
        }
        #expect(outcome.sentence == "Password changed. You can now sign in with your new password.")
        #expect(page.continueURL == Self.continueURL, "Continue goes to the continue URL")
    }

    @Test("resetPassword: a code of another kind, or a used one, stops the page with the reason")
    func resetPasswordRefused() {
        var (wrongKind, _) = HostedActionHandler.open(actionURL: Self.link("resetPassword"))
        wrongKind.receive(.resetCodeChecked(ResetPasswordResponse(email: "bob@example.com", requestType: .verifyEmail)))
        #expect(wrongKind.step == .failed(.codeOfWrongKind(.verifyEmail)))
        #expect(HostedActionHandler.Failure.codeOfWrongKind(.verifyEmail).code == .invalidOobCode)

        var (used, _) = HostedActionHandler.open(actionURL: Self.link("resetPassword"))
        used.receive(.failed(.server(.invalidOobCode, detail: nil)))
        #expect(used.step == .failed(.call(.server(.invalidOobCode, detail: nil))))
        #expect(used.submitNewPassword("correct horse") == nil)
    }

    @Test("verifyEmail, verifyAndChangeEmail and recoverEmail apply the code on load, then offer Continue", arguments: [
        ("verifyEmail", "Your email has been verified", "bob@example.com"),
        ("verifyAndChangeEmail", "Your email has been changed and verified", "bob.new@example.com"),
        ("recoverEmail", "Your sign-in email has been restored", "bob@example.com"),
    ])
    func applyCode(mode: String, title: String, email: String) {
        var (page, load) = HostedActionHandler.open(actionURL: Self.link(mode))
        #expect(load == .applyCode(UpdateAccountRequest(oobCode: "CODE1")))
        #expect(page.submitNewPassword("x") == nil, "no reset form for mode \(mode)")
        var applied = UpdateAccountResponse(localId: "u1", email: "bob@example.com", emailVerified: true)
        applied.newEmail = "bob.new@example.com"
        page.receive(.codeApplied(applied))
        guard case .done(let outcome) = page.step else {
            Issue.record("expected the done step, got \(page.step)")
            return
        }
        #expect(outcome.title == title)
        #expect(outcome.email == email)
        #expect(page.continueURL == Self.continueURL)
    }

    @Test("signIn: no call, the code left alone; the browser goes on to the continue URL with the link's other parameters")
    func signInForwards() {
        let (page, load) = HostedActionHandler.open(actionURL: Self.link("signIn", extra: "&tenantId=t1"))
        #expect(load == nil, "the hosted page never signs in: the web app at the continue URL does")
        #expect(page.step == .forwarded(to: "https://www.example.com/articles/7?ref=mail&mode=signIn&oobCode=CODE1&apiKey=AIzaKey&lang=fr&tenantId=t1"))
    }

    @Test("signIn: a parameter the continue URL already has is replaced, not repeated; values are form-encoded")
    func signInReplacesParameters() {
        let (page, _) = HostedActionHandler.open(actionURL: Self.link("signIn", continueUrl: "https://app.test/finish?mode=old&x=a%20b&mode=again"))
        #expect(page.step == .forwarded(to: "https://app.test/finish?mode=signIn&x=a+b&oobCode=CODE1&apiKey=AIzaKey&lang=fr"))
    }

    @Test("signIn without a continue URL, or with a relative one, has nowhere to go")
    func signInWithoutContinueURL() {
        #expect(HostedActionHandler.open(actionURL: Self.link("signIn", continueUrl: nil)).0.step == .failed(.noContinueURL))
        #expect(HostedActionHandler.open(actionURL: Self.link("signIn", continueUrl: "/articles/7")).0.step == .failed(.continueURLNotAbsolute("/articles/7")))
    }

    @Test("a link without oobCode, or with a mode the page does not handle, stops on load")
    func unusableLinks() {
        let (noCode, load) = HostedActionHandler.open(actionURL: Self.link("verifyEmail", code: nil))
        #expect(load == nil)
        #expect(noCode.step == .failed(.noCode(mode: "verifyEmail")))
        #expect(HostedActionHandler.open(actionURL: Self.link("signInWithPhone")).0.step == .failed(.unsupportedMode("signInWithPhone")))
        #expect(HostedActionHandler.open(actionURL: Self.link("dance")).0.step == .failed(.unsupportedMode("dance")))
    }

    @Test("a revert of a second factor applies its code on load, and says what it removed")
    func revertSecondFactor() {
        let (page, load) = HostedActionHandler.open(actionURL: Self.link("revertSecondFactorAddition"))
        #expect(page.step == .loading)
        guard case .applyCode(let request)? = load else {
            Issue.record("no code applied on load: \(String(describing: load))")
            return
        }
        #expect(request.oobCode != nil)
    }

    @Test("an answer the page no longer waits for changes nothing")
    func lateAnswers() {
        var (page, _) = HostedActionHandler.open(actionURL: Self.link("verifyEmail"))
        page.receive(.codeApplied(UpdateAccountResponse(localId: "u1", email: "bob@example.com", emailVerified: true)))
        let done = page.step
        page.receive(.failed(.network(.timedOut(seconds: 10))))
        page.receive(.passwordSaved(ResetPasswordResponse(email: "x@example.com", requestType: .passwordReset)))
        #expect(page.step == done)
    }
}
