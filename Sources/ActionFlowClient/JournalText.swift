import ActionFlowBackend
import ActionFlowModel
import Foundation

/// The narration of a journal: one function from facts to lines, used by the interface's Flow
/// pane, `actionflow run` and scenario expectations (`narrates:`). Every line is sanitized
/// whole, and action codes and API keys in links are masked (docs/security-review.md).
public enum JournalText {
    public static func lines(_ fact: JournalFact) -> [String] {
        raw(fact).map(clean)
    }

    /// How many lines `lines(fact)` gives, without rendering them (the Flow pane counts every
    /// line of a long journal on each frame but renders only those it shows).
    public static func lineCount(_ fact: JournalFact) -> Int {
        switch fact {
        case .exchange, .mailSent: 0
        case .routed(_, let route): route.steps.count + route.assumptions.count
        case .sdkHandled(let handling): 1 + handling.reasons.count
        case .sdkSent(let notes): notes.count
        case .captured(.call(let call)): 1 + call.actionCodeSettings.count
        default: 1
        }
    }

    static func clean(_ line: String) -> String {
        let safe = UntrustedText.sanitize(line)
        // Only a line with a query (`=`, or `%3D` when encoded) can hold a code or key.
        let mayHoldSecrets = safe.utf8.contains { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "%") }
        return mayHoldSecrets ? SecretMasking.maskLinks(in: safe) : safe
    }

    private static func safe(_ text: String?) -> String { Narration.safe(text) }

    private static func raw(_ fact: JournalFact) -> [String] {
        switch fact {
        case .unknownRoute(let path, let screen):
            return ["open \(safe(path)): the app has no such route; stays at \(screen.name)"]
        case .noRoute(let url):
            return ["app opened with \(safe(url)): no route of the app; shows the article list"]
        case .gated(let reason, let target, .signIn):
            return ["\(text(reason)): members only: sign in first (pending destination \(target.name))"]
        case .gated(let reason, _, .verifiedEmail):
            return ["\(text(reason)): /subscribe needs a verified email and the cached user says emailVerified false (stale until reloaded)"]
        case .arrived(let reason, let screen):
            return ["\(text(reason)): at \(screen.name)"]
        case .flowCompleted(let kind, let screen, let continueURL):
            return ["\(kind.rawValue) complete: resumed at \(screen.name) from continueUrl \(safe(continueURL))"]
        case .forgotPassword(let resumePath):
            return ["forgot password: the app will send a reset email whose continue URL points back to \(resumePath)"]
        case .backToApp(let screen):
            return ["back to the app at \(screen.name)"]
        case .signedOut:
            return ["signed out"]
        case .subscribed(let email):
            return ["subscription completed for \(safe(email))"]
        case .refused(let refusal):
            return [text(refusal)]
        case .request(let call, let caller, let purpose):
            return [text(call, by: caller, purpose)]
        case .exchange, .mailSent:
            return []
        case .reply(let reply):
            return [text(reply)]
        case .callFailed(let operation, let failure, let retryable):
            return ["\(operation.rawValue) → \(Narration.describe(failure))\(retryable ? "; the user may retry" : "")"]
        case .webWidget(let widget):
            return ["web widget: " + text(widget)]
        case .scanner(let scanner):
            return [text(scanner)]
        case .mailboxOpened:
            return ["open the mailbox"]
        case .mailboxListed(let new, let total):
            return [new > 0 ? "mailbox: \(new) new, \(total) in all" : "mailbox: \(total) message\(total == 1 ? "" : "s"), nothing new"]
        case .messageOpened(let subject, let to):
            return ["open \"\(safe(subject))\" to \(safe(to))"]
        case .textMessageArrived(let phoneNumber):
            return ["SMS to \(safe(phoneNumber)) arrives with a 6-digit code; the app fills it in"]
        case .linkPasted(let link):
            return ["link pasted into the app: \(safe(link))"]
        case .routed(_, let route):
            return route.steps.map(safe) + route.assumptions.map(safe)
        case .storePage(let visit):
            return ["\(visit.store.title) page for \(safe(visit.appID)): \(visit.purpose == .install ? "install" : "update") the app, then it opens with the link"]
        case .storeCompleted(let page):
            return ["\(page.store.title): \(page.purpose == .install ? "installed" : "updated to")\(page.version.map { " v\($0)" } ?? ""); the app opens with the link"]
        case .browserOpened(let url):
            return ["browser opens \(safe(url)); the app does not get the link"]
        case .webAppOpened(let url):
            let path = URLComponents(string: url).map(\.path).flatMap { $0.isEmpty ? nil : $0 } ?? "/"
            return ["browser opens \(safe(url)): no app here, so the web app shows the continue URL's path (\(safe(path)))"]
        case .appColdStarted(_, let destination, let email, let flow):
            var forgotten: [String] = []
            if let destination { forgotten.append("where the user was going (\(destination.name))") }
            if let email { forgotten.append("the email for sign-in (\(safe(email)))") }
            if let flow { forgotten.append("the \(flow.rawValue) in progress") }
            let lost = forgotten.isEmpty ? "nothing was in memory" : "it forgets " + forgotten.joined(separator: ", ")
            return ["the app was killed before the tap: it cold-starts from the link (\(lost)); the link's continue URL is the only state that survives"]
        case .sdkSent(let notes):
            return notes.map(safe)
        case .sdkHandled(let handling):
            return [sdkHeadline(handling)] + handling.reasons.map(safe)
        case .appCrashed(let reason, let flow):
            return ["the app crashed (\(safe(reason)))\(flow.map { ": the \($0.rawValue) in progress is lost" } ?? ""); reopened, it starts at the article list"]
        case .askForSignInEmail(let continueURL, inWebApp: true?):
            return ["the web app at the continue URL finishes the sign-in (\(continueNote(continueURL))), but this browser does not remember the email (the link was asked for on another device?): it asks for it"]
        case .askForSignInEmail(let continueURL, _):
            return ["app handles mode signIn (\(continueNote(continueURL))) but does not remember the email (opened on another device?): ask for it"]
        case .settingsEdited(let old, let new):
            return ["settings: \(Narration.changes(from: old, to: new))"]
        case .deviceEdited(let device):
            let version = device.installedVersion.map { " v\($0)" } ?? ""
            return ["device: \(safe(device.osName)), app \(device.appInstalled ? "installed\(version)" : "not installed"), links \(device.linksVerified ? "verified" : "not verified"), mail \(device.mailClient.rawValue)\(device.mailScanner ? ", mail scanner" : "")\(device.appKilledBeforeTap ? ", app killed before the next tap" : "")\(device.sdk.map { ", app on \($0.name)\(device.passesWholeLink ? " (given the whole link)" : "")" } ?? "")\(device.linkDomains.map { ", claims \($0.isEmpty ? "no link domain" : $0.map(safe).joined(separator: ", "))" } ?? "")"]
        case .projectEdited(let project):
            return ["project \(safe(project.projectId)): \(project.mobileLinkStyle.rawValue), authorized domains \(project.authorizedDomains.map(safe).joined(separator: ", ")); the world restarts with it"]
        case .continueURLBaseEdited(let base):
            return ["continue URLs now start with \(safe(base))"]
        case .localeEdited(let locale):
            return [locale.map { "emails requested with X-Firebase-Locale \($0)" } ?? "emails requested without X-Firebase-Locale: the project's default language"]
        case .clockAdvanceRequested(let seconds):
            return ["advance the project clock by \(SimulatedDuration.describe(seconds))"]
        case .clockAdvanced(let now):
            return ["project clock now \(now.iso8601Stamp)"]
        case .worldResetRequested:
            return ["reset the world: preset users, no codes, empty mailbox, clock at its start"]
        case .worldReset(let now):
            return ["world reset: signed out, empty mailbox\(now.map { ", clock at \($0.iso8601Stamp)" } ?? "")"]
        case .serviceFailed(let effect, let failure):
            return ["\(effect.summary) failed: \(Narration.describe(failure))"]
        case .retryRequested:
            return ["retry requested by the user"]
        case .captured(.call(let call)):
            return call.lines
        case .captured(.actionLink(let link)):
            return ["action link: " + link.line]
        case .captured(.emulatorRequest(let request)):
            return ["the emulator's own API: " + request.line]
        case .captured(.finding(let finding, let subject)):
            return ["finding [\(finding.severity.rawValue)] \(finding.code) (\(CapturedSubject.spoken(path: subject))): \(finding.message)"]
        case .errorDismissed:
            return ["error dismissed"]
        }
    }

    static func sdkHeadline(_ handling: SDKAppHandling) -> String {
        let app = "the app (\(handling.profile)) reads the link with its SDK"
        switch handling.outcome {
        case .handles(let operation, _, let continueURL):
            var line = "\(app): it handles \(operation.mode ?? operation.rawValue), continue URL \(continueURL.map(safe) ?? "(none)")"
            if let carried = handling.linkContinueURL, carried != continueURL {
                line += ", where the link carries \(safe(carried))"
            }
            return line
        case .ignores:
            return "\(app): it finds no action to handle"
        case .throwsError(let message):
            return "\(app): the SDK throws \(safe(message))"
        case .crashes(let message):
            return "\(app): the SDK traps (\(safe(message)))"
        }
    }

    static func text(_ reason: NavigationReason) -> String {
        switch reason {
        case .open(let screen): "open \(screen.name)"
        case .resume: "resume"
        case .deepLink: "deep link"
        case .continueURL(let url): "app opened with continue URL \(safe(url))"
        }
    }

    static func continueNote(_ continueURL: String?) -> String {
        continueURL.map { "continueUrl \(safe($0))" } ?? "no continueUrl"
    }

    static func text(_ refusal: Refusal) -> String {
        switch refusal {
        case .verifyNeedsSignIn: "verify email needs a signed-in user: sign in first"
        case .noSignInWaitingForEmail: "no email-link sign-in is waiting for an email"
        case .noSuchMessage(let id): "no message \(safe(id)) in the inbox"
        case .noNewPasswordForm: "no new-password form is showing"
        case .noContinueButton: "no Continue button is showing"
        case .noStorePage: "no store page is showing"
        case .reloadNeedsSignIn: "reload needs a signed-in user"
        case .nothingToRetry: "nothing to retry"
        case .noContinueURL: "web widget: no continueUrl in the link, so no Continue button; the flow ends on this page"
        case .subscribeNeedsSignIn: "subscribe needs sign-in"
        case .subscribeNeedsVerifiedEmail: "subscribe refused: cached user says emailVerified false"
        case .sdkRefused(let type, let sdk, let problem):
            "sendOobCode \(type.rawValue) refused by the \(sdk) SDK before sending: \(problem.code) (\(problem.field)): \(safe(problem.message))"
        case .unsupportedMode(let mode): "app does not handle mode \(safe(mode)); ignored"
        case .secondFactorNeedsSignIn: "adding a second sign-in step needs a signed-in user: sign in first"
        case .noTextMessage(let phoneNumber): "no SMS code for \(safe(phoneNumber)) arrived: the second factor is not added"
        }
    }

    static func text(_ call: AuthCall, by caller: Caller, _ purpose: CallPurpose) -> String {
        switch purpose {
        case .signInForm:
            return "signInWithPassword for \(safe(call.email))"
        case .emailConfirmed where caller == .webWidget:
            return "web widget: email confirmed, signInWithEmailLink for \(safe(call.email))"
        case .emailConfirmed:
            return "email confirmed for email-link sign-in: \(safe(call.email))"
        case .newPasswordForm:
            return "\(caller == .webWidget ? "web widget" : "app"): resetPassword with newPassword"
        case .reloadTapped:
            return "reload user: accounts:lookup with idToken"
        case .sendEmail(let recipient):
            guard case .sendOobCode(let request, _) = call else { return call.operation.rawValue }
            let whom = (recipient ?? "").trimmingWhitespace().isEmpty ? "(no email)" : safe(recipient)
            return "sendOobCode \(request.requestType.rawValue) for \(whom) with \(Narration.describe(request))"
        case .signInWithNewPassword:
            return "app signs in with the new password: signInWithPassword for \(safe(call.email))"
        case .reloadAfterApplying(let cachedVerified):
            return "cached user still says emailVerified \(cachedVerified) until reloaded: accounts:lookup with idToken"
        case .loadSignedInUser:
            return "accounts:lookup with the new idToken to load the user before showing it signed in"
        case .handleLink(let continueURL):
            let note = continueNote(continueURL)
            switch call {
            case .resetPassword: return "app handles mode resetPassword (\(note)): resetPassword with oobCode only to check it"
            case .update: return "app handles mode verifyEmail (\(note)): accounts:update with oobCode"
            default: return "app handles mode signIn (\(note)): signInWithEmailLink for \(safe(call.email))"
            }
        case .webWidgetLoaded(let actionURL):
            return "web widget opens \(safe(actionURL)): \(webWidgetAction(call))"
        case .scannerPreOpened(let subject):
            return "mail scanner pre-opens the link in \"\(safe(subject))\" like a desktop browser: the web widget \(webWidgetAction(call))"
        case .addSecondFactor:
            guard case .startMfaEnrollment(let request) = call else { return call.operation.rawValue }
            return "add \(safe(request.phoneEnrollmentInfo?.phoneNumber)) as a second sign-in step: accounts/mfaEnrollment:start with idToken sends it an SMS code"
        case .finishSecondFactor:
            return "accounts/mfaEnrollment:finalize with the SMS code and its sessionInfo"
        case .reloadAfterSecondFactor:
            return "accounts:lookup with the new idToken to load the enrolled factor"
        }
    }

    /// What the hosted page does on load with this call.
    static func webWidgetAction(_ call: AuthCall) -> String {
        switch call {
        case .resetPassword: "checks the PASSWORD_RESET code (resetPassword with oobCode only; not consumed)"
        case .signInWithEmailLink: "signs in on the web page (signInWithEmailLink; consumes the code)"
        default: "applies the code on load (accounts:update with oobCode; consumes it)"
        }
    }

    static func text(_ reply: ReplyFact) -> String {
        switch reply {
        case .oobCodeSent(let type, let email, let protected):
            let protection = protected ? " (email enumeration protection: an unknown address gets the same answer and no email)" : ""
            return "sendOobCode \(type.rawValue) → sent to \(safe(email))\(protection)"
        case .mailLanguageFallback(let locale, let language):
            return "no email templates for X-Firebase-Locale \(safe(locale)): the email falls back to \(MailTemplates.name(of: language)) (\(safe(language))), the project's default language"
        case .checkYourEmail:
            return "app: \"check your email\", back to sign-in"
        case .passwordChanged:
            return "resetPassword with newPassword → PASSWORD_RESET code consumed; older sessions revoked"
        case .codeApplied(let verifyEmail, let verified):
            return "accounts:update with oobCode → \(verifyEmail ? "VERIFY_EMAIL " : "")code consumed; the server now says emailVerified \(verified)"
        case .signedInWithPassword(let email):
            return "signInWithPassword → ID token for \(safe(email))"
        case .signedInWithEmailLink(let email):
            return "signInWithEmailLink → EMAIL_SIGNIN code consumed; ID token for \(safe(email))"
        case .signedInWithoutToken:
            return "no ID token to load the user with: signed in, emailVerified unknown (taken as false)"
        case .lookupFoundNoUser:
            return "accounts:lookup → no user: signed out"
        case .lookupRefreshed(let verified, let cachedWas):
            return "accounts:lookup → emailVerified \(verified)\(cachedWas == verified ? " (unchanged)" : " (cache was \(cachedWas))")"
        case .lookupSignedIn(let email, let verified):
            return "accounts:lookup → signed in as \(safe(email)), emailVerified \(verified)"
        case .resetCodeValid(let email):
            return "resetPassword with oobCode only → valid PASSWORD_RESET code for \(safe(email)) (not consumed): new-password form"
        case .codeOfWrongKind(let type):
            return "resetPassword check → a \(type.rawValue) code opened as mode resetPassword: code of the wrong kind"
        case .unexpected(let operation):
            return "\(operation.rawValue) → unexpected reply"
        case .secondFactorCodeSent(let phoneNumber):
            return "accounts/mfaEnrollment:start → SMS code sent to \(safe(phoneNumber))"
        case .secondFactorEnrolled(let phoneNumber):
            return "accounts/mfaEnrollment:finalize → \(safe(phoneNumber)) is a second factor now; new ID token (a production project emails a link that removes it again)"
        case .secondFactorRequired(let email, let factors):
            return "signInWithPassword → no ID token for \(safe(email)): the account has \(factors) second factor\(factors == 1 ? "" : "s"), and the sign-in waits for one (mfaPendingCredential)"
        }
    }

    static func text(_ widget: WebWidgetFact) -> String {
        switch widget {
        case .answeredAfterLeaving(let operation):
            "\(operation.rawValue) answered after the page was left"
        case .codeOfWrongKind(let type):
            "resetPassword check → a \(type.rawValue) code: code of the wrong kind for mode resetPassword"
        case .resetFormShown(let email):
            "valid PASSWORD_RESET code for \(safe(email)); shows its new-password form"
        case .passwordChanged(let email, let continueShown):
            "resetPassword with newPassword → PASSWORD_RESET code consumed for \(safe(email)); older sessions revoked\(continueShown ? "; Continue shown" : "")"
        case .emailVerified(let email, let continueShown):
            "accounts:update with oobCode → code consumed; \(safe(email)) verified on the server\(continueShown ? "; Continue shown" : "")"
        case .secondFactorRemoved(let email, let continueShown):
            "accounts:update with oobCode → REVERT_SECOND_FACTOR_ADDITION code consumed; the second factor of \(safe(email)) is removed: the password alone signs in again\(continueShown ? "; Continue shown" : "")"
        case .done(let operation):
            "\(operation.rawValue) → done"
        case .failed(let operation, let failure):
            "\(operation.rawValue) → \(Narration.describe(failure))"
        case .unusable(let mode, let missingCode):
            "mode \(safe(mode))\(missingCode ? " without oobCode" : ""): nothing it can do"
        case .forwarded(let url):
            "mode signIn: no sign-in on this page, the code is left unused; it sends the browser on to the continue URL with the link's mode, oobCode, apiKey and lang: \(safe(url))"
        case .cannotForward(.continueURLNotAbsolute(let url)):
            "mode signIn: the continue URL \(safe(url)) is not an absolute URL, so there is no page to send the browser on to"
        case .cannotForward:
            "mode signIn without a continue URL: there is no page to send the browser on to, so nobody can finish the sign-in"
        }
    }

    static func text(_ scanner: ScannerFact) -> String {
        switch scanner {
        case .landedElsewhere(let subject, let url):
            "mail scanner opens the link in \"\(safe(subject))\" like a desktop browser and lands on \(safe(url)): no code is touched"
        case .noCode(let subject):
            "mail scanner opens the link in \"\(safe(subject))\": the web widget has no code to act on"
        case .cannotConfirmEmail(let subject):
            "mail scanner opens the link in \"\(safe(subject))\" like a desktop browser: the hosted page sends it on to the continue URL, whose web app asks for the email, which a scanner cannot give; the code is left alone"
        case .result(let call):
            "mail scanner: \(scannerResult(call))"
        case .removedSecondFactor:
            "mail scanner: accounts:update with oobCode → REVERT_SECOND_FACTOR_ADDITION code consumed: the second factor is removed before the user reads the email, and the user's tap will fail with INVALID_OOB_CODE"
        case .failed(let operation, let failure):
            "mail scanner: \(operation.rawValue) → \(Narration.describe(failure))"
        }
    }

    static func scannerResult(_ call: AuthCall) -> String {
        switch call {
        case .resetPassword: "resetPassword with oobCode only → code checked, not consumed; the user's tap still works"
        case .update: "accounts:update with oobCode → code consumed (the email is verified, but the user's tap will fail with INVALID_OOB_CODE)"
        case .signInWithEmailLink: "signInWithEmailLink → code consumed by the scanner's browser; the user's tap will fail with INVALID_OOB_CODE"
        default: "\(call.operation.rawValue) → done"
        }
    }
}

extension AuthCall {
    /// The email a call names, for narration.
    var email: String? {
        switch self {
        case .signUp(let request): request.email
        case .signInWithPassword(let request): request.email
        case .signInWithEmailLink(let request): request.email
        case .sendOobCode(let request, _): request.email
        default: nil
        }
    }
}
