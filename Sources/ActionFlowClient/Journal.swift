import ActionFlowModel
import Foundation

/// One fact of a session, at the project's time. The reducer appends entries; narration,
/// transcripts, sequence diagrams and review reports are rendered from them.
public struct JournalEntry: Sendable, Equatable, Codable {
    /// The project's clock when it happened (nil when a remote world's time is unknown).
    public var at: Date?
    public var fact: JournalFact
    /// The device it happened on, in a session of several devices; nil with one device, and for
    /// what happens to the shared world (the clock, a reset, the project, an email sent).
    public var device: DeviceName?

    public init(at: Date?, _ fact: JournalFact, device: DeviceName? = nil) {
        self.at = at
        self.fact = fact
        self.device = device
    }

    /// The narration lines of this entry (none for the network record, which the Network pane
    /// shows), each starting with the device it happened on when the session has several.
    public var lines: [String] {
        let lines = JournalText.lines(fact)
        guard let device else { return lines }
        // On a computer "the app" is the app's website.
        return lines.map { "On the \(device.title): \(Vocabulary.said($0, on: device.preset))" }
    }
}

/// Why the app went to a screen.
public enum NavigationReason: Sendable, Equatable, Codable {
    /// The user opened a route.
    case open(AppScreen)
    /// After sign-in or a reload, back where the user was heading.
    case resume
    /// A URL the app has no route for: the article list.
    case deepLink
    /// The app was opened with a continue URL.
    case continueURL(String)
}

/// What stood between the user and a screen.
public enum NavigationGate: String, Sendable, Equatable, Codable {
    /// Members only: sign in first.
    case signIn
    /// `/subscribe` with a cached user that is not verified.
    case verifiedEmail
}

/// Why the app makes an Identity Toolkit call.
public enum CallPurpose: Sendable, Equatable, Codable {
    /// The sign-in form was submitted.
    case signInForm
    /// The email typed to finish email-link sign-in.
    case emailConfirmed
    /// The new-password form was submitted.
    case newPasswordForm
    /// The user asked to reload their account.
    case reloadTapped
    /// The app asks for an email (`sendOobCode`) about this address.
    case sendEmail(recipient: String?)
    /// After a reset in the app, sign in with the new password.
    case signInWithNewPassword
    /// After applying a verify-email code, refresh the stale cached user.
    case reloadAfterApplying(cachedVerified: Bool)
    /// After a sign-in, load the user before showing it signed in.
    case loadSignedInUser
    /// The app opened an email action link and handles its code.
    case handleLink(continueURL: String?)
    /// The hosted web widget loaded with this action URL.
    case webWidgetLoaded(actionURL: String)
    /// A mail security scanner pre-opened the link of this message.
    case scannerPreOpened(subject: String)
    /// The user adds a phone as a second sign-in step: an SMS code is sent to it.
    case addSecondFactor
    /// The SMS code read: the factor is enrolled with it.
    case finishSecondFactor
    /// After enrolling a factor, load the user with the new ID token that names it.
    case reloadAfterSecondFactor
}

/// A request the app refused to make, or an action that had nothing to act on.
public enum Refusal: Sendable, Equatable, Codable {
    case verifyNeedsSignIn
    case noSignInWaitingForEmail
    case noSuchMessage(String)
    case noNewPasswordForm
    case noContinueButton
    case noStorePage
    case reloadNeedsSignIn
    case nothingToRetry
    /// The web widget's page has no `continueUrl`.
    case noContinueURL
    /// The subscribe button needs sign-in first.
    case subscribeNeedsSignIn
    /// The cached user says the email is not verified.
    case subscribeNeedsVerifiedEmail
    /// The SDK refused the settings before sending.
    case sdkRefused(OobRequestType, sdk: String, SettingsValidationError)
    /// A link mode the app does not handle.
    case unsupportedMode(String)
    case secondFactorNeedsSignIn
    /// The SMS code sent to this number is not among the phone's messages.
    case noTextMessage(phoneNumber: String)
}

/// What the app, the web widget or the scanner learned from a reply.
public enum ReplyFact: Sendable, Equatable, Codable {
    case oobCodeSent(OobRequestType, email: String?, enumerationProtected: Bool)
    /// The `X-Firebase-Locale` sent has no email templates: the email is in `language`, the project's default.
    case mailLanguageFallback(locale: String, language: String)
    /// The app goes back to sign-in after asking for a reset: "check your email".
    case checkYourEmail
    case passwordChanged
    case codeApplied(verifyEmail: Bool, serverSaysVerified: Bool)
    case signedInWithPassword(email: String?)
    case signedInWithEmailLink(email: String?)
    /// A sign-in answered without an ID token: the user cannot be loaded.
    case signedInWithoutToken
    case lookupFoundNoUser
    case lookupRefreshed(verified: Bool, cachedWas: Bool)
    case lookupSignedIn(email: String?, verified: Bool)
    /// A reset code checked: valid, for this account.
    case resetCodeValid(email: String?)
    /// The code checked is of another kind than the link's mode says.
    case codeOfWrongKind(OobRequestType)
    case unexpected(IdentityToolkitOperation)
    /// `mfaEnrollment:start` sent an SMS code to this number.
    case secondFactorCodeSent(phoneNumber: String)
    /// `mfaEnrollment:finalize` enrolled this number; new tokens name the factor.
    case secondFactorEnrolled(phoneNumber: String?)
    /// A first factor answered with no tokens: the account has `factors` second factors and the
    /// sign-in waits for one (`mfaPendingCredential`).
    case secondFactorRequired(email: String?, factors: Int)
}

/// What the hosted web widget did.
public enum WebWidgetFact: Sendable, Equatable, Codable {
    case answeredAfterLeaving(IdentityToolkitOperation)
    case codeOfWrongKind(OobRequestType)
    case resetFormShown(email: String?)
    case passwordChanged(email: String?, continueShown: Bool)
    case emailVerified(email: String?, continueShown: Bool)
    /// A REVERT_SECOND_FACTOR_ADDITION code applied: the factor it names is removed.
    case secondFactorRemoved(email: String?, continueShown: Bool)
    case done(IdentityToolkitOperation)
    case failed(IdentityToolkitOperation, AuthFailure)
    /// The link has no code the page can use.
    case unusable(mode: String, missingCode: Bool)
    /// An email-link sign-in: the page sent the browser on to the continue URL with the link's parameters.
    case forwarded(to: String)
    /// A sign-in link the page cannot send on (no continue URL, or not an absolute one).
    case cannotForward(HostedActionHandler.Failure)
}

/// What the mail security scanner did with a new message.
public enum ScannerFact: Sendable, Equatable, Codable {
    /// The link led somewhere that touches no code.
    case landedElsewhere(subject: String, url: String)
    case noCode(subject: String)
    /// An email-link sign-in page asks for the email, which a scanner cannot give.
    case cannotConfirmEmail(subject: String)
    /// The scanner's call was answered.
    case result(AuthCall)
    /// The scanner's browser applied a REVERT_SECOND_FACTOR_ADDITION code: the factor is gone.
    case removedSecondFactor
    case failed(IdentityToolkitOperation, AuthFailure)
}

/// The facts a session records.
public enum JournalFact: Sendable, Equatable, Codable {
    // Navigation
    case unknownRoute(path: String, stayedAt: AppScreen)
    /// The app was opened with a URL it has no route for.
    case noRoute(url: String)
    case gated(NavigationReason, target: AppScreen, gate: NavigationGate)
    case arrived(NavigationReason, at: AppScreen)
    case flowCompleted(FlowKind, at: AppScreen, continueURL: String?)
    case forgotPassword(resumePath: String)
    case backToApp(at: AppScreen)
    case signedOut
    case subscribed(email: String?)
    case refused(Refusal)

    // Calls and replies
    /// The app, widget or scanner is about to call; `purpose` says why.
    case request(AuthCall, by: Caller, purpose: CallPurpose)
    /// The call went out and this exchange recorded it (shown in the Network pane, not narrated).
    case exchange(id: Int, IdentityToolkitOperation, by: Caller, status: Int?, error: String?)
    case reply(ReplyFact)
    /// The app's call failed; `retryable` when the banner offers retry.
    case callFailed(IdentityToolkitOperation, AuthFailure, retryable: Bool)
    case webWidget(WebWidgetFact)
    case scanner(ScannerFact)

    // Mail and links
    case mailboxOpened
    case mailboxListed(new: Int, total: Int)
    /// The world sent an email (recorded where the world is in process).
    case mailSent(id: String, to: String, OobRequestType)
    case messageOpened(subject: String, to: String)
    /// The phone got the SMS code sent to this number, and the app fills it in.
    case textMessageArrived(phoneNumber: String)
    case linkPasted(String)
    /// A link tapped: the device's reasons and the router's assumptions.
    case routed(link: String, TapRoute)
    case storePage(StoreVisit)
    case storeCompleted(StorePage)
    case browserOpened(String)
    /// A computer's browser opened a page of the app's web origin: the web app, at its path.
    case webAppOpened(String)
    /// The app handles an email-link sign-in but does not remember the email; `inWebApp` when
    /// it is the web app in a computer's browser (nil in journals written before it was kept).
    case askForSignInEmail(continueURL: String?, inWebApp: Bool? = nil)
    /// The app was killed before the tap and started from this link, forgetting what it held.
    case appColdStarted(link: String, forgotDestination: AppScreen?, forgotEmailForSignIn: String?, forgotFlow: FlowKind?)
    /// The app's SDK release changed the settings it sends: each field, and the rule.
    case sdkSent([String])
    /// The app read the link it was opened with through its SDK profile, and what that decided.
    case sdkHandled(SDKAppHandling)
    /// The app's process ended (an SDK trap); `lostFlow` is the flow it was in.
    case appCrashed(reason: String, lostFlow: FlowKind?)

    // Edits and the world
    case settingsEdited(from: ActionCodeSettings, to: ActionCodeSettings)
    case deviceEdited(Device)
    case projectEdited(ProjectConfiguration)
    case continueURLBaseEdited(String)
    case localeEdited(String?)
    case clockAdvanceRequested(seconds: TimeInterval)
    case clockAdvanced(Date)
    case worldResetRequested
    case worldReset(now: Date?)
    case serviceFailed(Effect, AuthFailure)
    /// What an imported capture shows.
    case captured(CapturedFact)
    case retryRequested
    case errorDismissed

    /// What happens to the world every device shares, not on one device.
    public var isAboutTheWorld: Bool {
        switch self {
        case .mailSent, .projectEdited, .clockAdvanceRequested, .clockAdvanced, .worldResetRequested, .worldReset: true
        default: false
        }
    }
}
