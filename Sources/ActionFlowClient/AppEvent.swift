import ActionFlowModel
import Foundation

/// Everything that can happen to the simulated phone: user intents and transport replies.
public enum AppEvent: Sendable, Equatable, Codable {
    // MARK: User intents
    /// Opens an app route such as `/articles/42`; anything else is reported, not followed.
    case openRoute(String)
    case signInSubmitted(email: String, password: String)
    case forgotPasswordTapped
    /// The forgot-password form: `sendOobCode` PASSWORD_RESET for this email.
    case passwordResetRequested(email: String)
    /// The verify-your-email prompt: `sendOobCode` VERIFY_EMAIL for the signed-in user.
    case verificationRequested
    /// `sendOobCode` EMAIL_SIGNIN for this email.
    case signInLinkRequested(email: String)
    /// The email typed to finish email-link sign-in when the app does not remember it.
    case signInEmailConfirmed(String)
    case mailboxOpened
    case messageOpened(id: String)
    /// Taps the link in this message (from the mail client, so the device's mail client matters).
    case linkTapped(messageID: String)
    /// A link pasted into the app (for example from a real inbox): the app handles it directly.
    case linkPasted(String)
    /// A link tapped on the phone outside the mail app (a message, a note): the OS routes it as
    /// it routes the email's.
    case linkOpened(String)
    /// A new password typed into the app's form or the web widget's form, whichever is showing.
    case newPasswordSubmitted(String)
    /// The web widget's Continue button.
    case continueTapped
    /// "Install" or "Update" on the store page.
    case storeActionTapped
    /// Back to the app from the mailbox, browser or store.
    case appOpened
    case reloadUserTapped
    /// The account screen's "Add phone": this number becomes the signed-in user's second sign-in
    /// step (`mfaEnrollment:start`, the SMS code read, `mfaEnrollment:finalize`).
    case secondFactorRequested(phoneNumber: String)
    case subscribeTapped
    case signOutTapped
    case settingsEdited(ActionCodeSettings)
    case deviceEdited(Device)
    case projectEdited(ProjectConfiguration)
    case continueURLBaseEdited(String)
    /// The `X-Firebase-Locale` the app sends (nil: none, the project's default language).
    case localeEdited(String?)
    case clockAdvanceRequested(seconds: TimeInterval)
    case worldResetRequested
    case retryTapped
    case errorDismissed

    // MARK: Session
    /// Another device of the session takes the focus: the following events happen on it.
    case deviceFocused(Int)
    /// An event for the device at this index, whichever is in focus: the reply to a call it made
    /// (in a session of several devices every effect and its replies name their device).
    indirect case onDevice(Int, AppEvent)
    /// A form field typed on the phone, kept so that a reopened session shows it.
    case draftEdited(field: String, text: String)
    /// A scenario is presented one step per key press.
    case presenterStarted(title: String, steps: [String])
    /// The presenter played its next step; `checked` when the step checked expectations.
    case presenterStepPlayed(passed: Bool, summary: String, checked: Bool)

    // MARK: Replies
    case callSucceeded(AuthCall, by: Caller, AuthReply)
    case callFailed(AuthCall, by: Caller, AuthFailure)
    case mailboxRefreshed([MailMessage])
    /// The SMS codes the world has sent and not seen used (`verificationCodes`).
    case textMessagesRead([PhoneVerificationCode])
    case clockAdvanced(Date)
    case worldReset(now: Date?)
    /// The world restarted with this project.
    case projectApplied(ProjectConfiguration, now: Date?)
    /// A mailbox, clock or reset effect failed below the protocol.
    case serviceFailed(Effect, AuthFailure)
    /// A call went out and came back (or failed); its `id` is given by the session.
    case exchangeRecorded(ExchangeRecord, IdentityToolkitOperation, by: Caller)
    /// The emails a call made the simulated project send (a server's are known only when its
    /// mailbox is listed).
    case mailSent([MailMessage])
    /// A call or an action link of an imported capture (`CapturedFlow.recording`).
    case captured(CaptureStep)
}

extension AppEvent {
    /// Whether the event is the world's answer to an effect: a replay plays it with the step
    /// that asked for it.
    public var isReply: Bool {
        switch self {
        case .onDevice(_, let event): event.isReply
        case .callSucceeded, .callFailed, .mailboxRefreshed, .textMessagesRead, .clockAdvanced, .worldReset, .projectApplied,
             .serviceFailed, .exchangeRecorded, .mailSent:
            true
        default: false
        }
    }
}

/// Work the runtime does for the reducer. Values, so tests compare them.
public enum Effect: Sendable, Hashable, Codable {
    /// One Identity Toolkit call; the reply comes back as `callSucceeded` or `callFailed`.
    /// A mail scanner pre-opening a link is a call `by: .mailScanner`.
    case call(AuthCall, by: Caller)
    case refreshMailbox
    /// The phone reads its SMS: the codes come back as `textMessagesRead`.
    case readTextMessages
    case advanceClock(seconds: TimeInterval)
    case resetWorld
    /// Restart the world with another project configuration; the app's project changes only
    /// when this succeeds.
    case applyProject(ProjectConfiguration)
    /// The effect of the device at this index (sessions of several devices only): its replies
    /// come back as `AppEvent.onDevice` with the same index.
    indirect case onDevice(Int, Effect)
}

/// Who makes a call: the app, the hosted web widget in a browser, or a mail security scanner.
public enum Caller: String, Sendable, Hashable, Codable {
    case app, webWidget, mailScanner
}

extension AuthCall {
    var busyTask: BusyTask {
        switch self {
        case .signInWithPassword, .signUp: .signIn
        case .sendOobCode: .sendOobCode
        case .resetPassword(let request): request.newPassword == nil ? .checkCode : .resetPassword
        case .update: .applyCode
        case .lookup: .lookup
        case .signInWithEmailLink: .emailLinkSignIn
        case .startMfaEnrollment, .finalizeMfaEnrollment: .secondFactor
        }
    }
}
