import ActionFlowModel

/// The words an audience reads for each typed fact: captions, check marks, headers, markers and
/// reports say these, never a scenario key (`landsAt`), a step verb (`tapLink`), an event name
/// (`openMailbox`) or a flow state name (`emailSent`). One place, so that every surface says
/// the same thing the same way.
public enum Vocabulary {
    /// An action link by what it does, from its `mode`: "a password reset link".
    public static func linkKind(mode: String?) -> String {
        switch mode.map(ActionCodeOperation.init(mode:)) {
        case .passwordReset?: "a password reset link"
        case .verifyEmail?: "an email verification link"
        case .recoverEmail?: "an email recovery link"
        case .emailLink?: "an email-link sign-in link"
        case .verifyAndChangeEmail?: "a change-of-address link"
        case .revertSecondFactorAddition?: "a second-factor revert link"
        case .unknown?, nil: "an action link"
        }
    }

    /// An app screen or a place on the device, as the audience sees it: `signIn` is "the
    /// sign-in screen", `webWidget` "the web widget", `/articles/42` "/articles/42 in the app".
    public static func place(_ name: String) -> String {
        switch name {
        case "signIn": "the sign-in screen"
        case "forgotPassword": "the “Forgot password?” screen"
        case "verifyEmail": "the “Verify your email” screen"
        case "newPassword": "the app's new-password form"
        case "confirmEmailForSignIn": "the app's “Confirm your email” screen"
        case "app": "the app"
        case "mailbox": "the mailbox"
        case "webWidget": "the web widget"
        case "store": "the store"
        case "browser": "the browser"
        default: name.hasPrefix("/") ? "\(UntrustedText.sanitize(name)) in the app" : UntrustedText.sanitize(name)
        }
    }

    /// What "the app" is on a device: on a computer, the app's website in the browser, never
    /// an installed app.
    public static func app(on device: Device) -> String {
        device.platform == .desktop ? "web app" : "app"
    }

    /// A sentence about the app, said of `device`: "the app" is "the web app" on a computer.
    public static func said(_ text: String, on device: Device) -> String {
        guard device.platform == .desktop else { return text }
        if text == "the app" { return "the web app" }
        var said = text
        for (app, webApp) in [("into the app", "into the web app"), ("in the app", "in the web app"), ("to the app", "to the web app"),
                              ("the app (", "the web app ("), ("app asks", "web app asks"), ("The app ", "The web app ")] {
            said = said.replacingOccurrences(of: app, with: webApp)
        }
        return said
    }

    /// Where a tapped link went (`LinkVisit.outcome`), as the end of "the link opens in …".
    public static func linkDestination(_ outcome: String) -> String {
        switch outcome {
        case "app": "the app"
        case "web widget": "the web widget"
        case "browser": "the browser"
        case "pasted into the app": "the app, pasted"
        default: UntrustedText.sanitize(outcome)
        }
    }
}

extension FlowStep {
    /// What the step means, for headers and reports (the Flow pane's checklist shows the state
    /// name beside it).
    public var spoken: String {
        switch self {
        case .requesting: "asking for the email"
        case .emailSent: "email sent"
        case .checkingCode: "checking the link's code"
        case .enteringNewPassword: "choosing a new password"
        case .confirmingNewPassword: "saving the new password"
        case .applyingCode: "applying the link's code"
        case .reloadingUser: "reloading the user"
        case .signingIn: "signing in"
        case .handledInWebWidget: "in the web widget"
        case .completed: "done"
        }
    }
}

extension AppScreen {
    /// The screen as the audience sees it.
    public var spoken: String { Vocabulary.place(name) }
}

extension Expectation {
    /// What the check found, in the audience's words: "back on /articles/42 in the app",
    /// "refused: INVALID_PASSWORD".
    public var spoken: String {
        switch self {
        case .landsAt(let path): "back on \(UntrustedText.sanitize(path)) in the app"
        case .screen(let name): "on \(Vocabulary.place(name))"
        case .fails(let code): "refused: \(code.rawValue)"
        case .noError: "no error"
        case .emailVerified(let verified): verified ? "email verified" : "email not verified yet"
        case .mailbox(let count): count == 1 ? "1 email in the inbox" : "\(count) emails in the inbox"
        case .signedIn(let email): email.map { "signed in as \(UntrustedText.sanitize($0))" } ?? "signed out"
        case .subscribed(let subscribed): subscribed ? "subscribed" : "not subscribed"
        case .flowStep(let step): step.map { "flow: \($0.spoken)" } ?? "no email action under way"
        case .narrates(let text): "the narration says “\(UntrustedText.sanitize(text))”"
        case .linkOpensIn(let place): "the link opens in \(Vocabulary.linkDestination(place))"
        case .store(let purpose): purpose == .install ? "the store offers the app" : "the store offers an update"
        case .finding(let code): "finding \(UntrustedText.sanitize(code))"
        }
    }

    /// The marks of a passed check: `✓ back on /articles/42 in the app  ✓ signed in as …`; not
    /// the narration's words, which are in the Flow pane already.
    public static func marks(_ expectations: [Expectation]) -> String {
        expectations.filter { if case .narrates = $0 { false } else { true } }.map { "✓ " + $0.spoken }.joined(separator: "  ")
    }
}

extension AppEvent {
    /// The caption of an event whose step the scenario expects to fail: an attempt, never a
    /// claim that it happened ("Tries to sign in as …", not "Signs in as …").
    public var attemptCaption: String {
        switch self {
        case .signInSubmitted(let email, _): "Tries to sign in as \(UntrustedText.sanitize(email))"
        case .passwordResetRequested(let email): "Tries to get a password reset email for \(UntrustedText.sanitize(email))"
        case .verificationRequested: "Tries to get a verification email"
        case .signInLinkRequested(let email): "Tries to get a sign-in link for \(UntrustedText.sanitize(email))"
        case .signInEmailConfirmed(let email): "Tries to confirm the sign-in as \(UntrustedText.sanitize(email))"
        case .newPasswordSubmitted: "Tries a new password"
        case .continueTapped: "Tries Continue"
        case .secondFactorRequested(let phoneNumber): "Tries to add \(UntrustedText.sanitize(phoneNumber)) as a second sign-in step"
        case .subscribeTapped: "Tries to subscribe"
        case .retryTapped: "Tries again"
        case .onDevice(_, let event): event.attemptCaption
        default: caption
        }
    }
}

extension ScenarioAction {
    /// The caption of a step the scenario expects to fail.
    public var attemptCaption: String {
        switch self {
        case .event(let event): event.attemptCaption
        case .tapLink(let reference): reference == .latest ? "Tries the link in the latest email" : "Tries the link in email \(reference)"
        case .pasteMessageLink: "Tries pasting the email's link into the app"
        default: caption
        }
    }
}

extension Scenario {
    /// The scenario's name as a title: a file name (`password-reset-in-app`) reads as words
    /// ("Password reset in app"); a name already written as words stays as it is.
    public var title: String {
        guard !name.contains(" ") else { return UntrustedText.sanitize(name) }
        let words = name.split(whereSeparator: { $0 == "-" || $0 == "_" }).joined(separator: " ")
        return UntrustedText.sanitize(words.prefix(1).uppercased() + words.dropFirst())
    }
}
