import ActionFlowModel
import Foundation

/// The simulated app's state machine: pure and synchronous, no I/O and no clock reads.
public enum AppReducer {
    public static func reduce(_ state: inout AppState, _ event: AppEvent) -> [Effect] {
        switch event {
        case .openRoute(let path):
            state.location = .app
            guard let screen = AppScreen(path: path) else {
                state.narrate("open \(Narration.safe(path)): the app has no such route; stays at \(state.screen.name)")
                state.banner = ErrorBanner(message: "No screen at \(Narration.safe(path))", code: nil, retry: nil)
                return []
            }
            state.pendingDestination = nil
            return state.navigate(to: screen, reason: "open \(screen.name)")

        case .signInSubmitted(let email, let password):
            state.location = .app
            state.banner = nil
            state.narrate("signInWithPassword for \(Narration.safe(email))")
            return state.start(.call(.signInWithPassword(SignInWithPasswordRequest(email: email, password: password)), by: .app))

        case .forgotPasswordTapped:
            state.location = .app
            state.screen = .forgotPassword
            state.banner = nil
            state.narrate("forgot password: the app will send a reset email whose continue URL points back to \(state.resumePath)")
            return []

        case .passwordResetRequested(let email):
            return state.requestEmail(.passwordReset, email: email)

        case .verificationRequested:
            guard let session = state.session else {
                state.narrate("verify email needs a signed-in user: sign in first")
                state.banner = ErrorBanner(message: "Sign in before verifying your email", code: nil, retry: nil)
                return []
            }
            return state.requestEmail(.verifyEmail, email: session.email)

        case .signInLinkRequested(let email):
            return state.requestEmail(.emailSignIn, email: email)

        case .signInEmailConfirmed(let email):
            guard let code = state.flow?.oobCode, state.flow?.kind == .emailLinkSignIn else {
                state.narrate("no email-link sign-in is waiting for an email")
                return []
            }
            state.narrate("email confirmed for email-link sign-in: \(Narration.safe(email))")
            state.flow?.step = .signingIn
            return state.start(.call(.signInWithEmailLink(SignInWithEmailLinkRequest(email: email, oobCode: code)), by: .app))

        case .mailboxOpened:
            state.location = .mailbox(openMessageID: nil)
            state.narrate("open the mailbox")
            return state.start(.refreshMailbox)

        case .messageOpened(let id):
            guard let message = state.inbox.first(where: { $0.id == id }) else {
                state.narrate("no message \(Narration.safe(id)) in the inbox")
                return []
            }
            state.location = .mailbox(openMessageID: id)
            state.narrate("open \"\(Narration.safe(message.subject))\" to \(Narration.safe(message.to))")
            return []

        case .linkTapped(let messageID):
            guard let message = state.inbox.first(where: { $0.id == messageID }) else {
                state.narrate("no message \(Narration.safe(messageID)) in the inbox")
                state.banner = ErrorBanner(message: "No message \(Narration.safe(messageID)) in the inbox", code: nil, retry: nil)
                return []
            }
            state.location = .mailbox(openMessageID: messageID)
            return state.tap(message.link, recipient: message.to)

        case .linkPasted(let link):
            state.location = .app
            state.narrate("link pasted into the app: \(Narration.safe(link))")
            state.lastLink = LinkVisit(link: link, outcome: "pasted into the app", anatomy: state.inspect(link))
            return state.appReceives(link)

        case .newPasswordSubmitted(let password):
            if case .webWidget(var page) = state.location, case .resetForm = page.step, let code = page.oobCode {
                page.step = .saving
                state.location = .webWidget(page)
                state.narrate("web widget: resetPassword with newPassword")
                return state.start(.call(.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: password)), by: .webWidget))
            }
            guard case .newPassword = state.screen, let code = state.flow?.oobCode else {
                state.narrate("no new-password form is showing")
                return []
            }
            state.flow?.step = .confirmingNewPassword
            state.banner = nil
            state.narrate("app: resetPassword with newPassword")
            return state.start(.call(.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: password)), by: .app))

        case .continueTapped:
            guard case .webWidget(let page) = state.location, case .done = page.step else {
                state.narrate("no Continue button is showing")
                return []
            }
            guard let route = LinkRouter.continueRoute(afterWidget: page.actionURL, on: state.device, project: state.project, requested: state.sentSettings),
                  let continueURL = page.continueURL else {
                state.narrate("web widget: no continueUrl in the link, so no Continue button; the flow ends on this page")
                return []
            }
            return state.follow(route, link: continueURL, recipient: nil)

        case .storeActionTapped:
            guard case .store(let page) = state.location else {
                state.narrate("no store page is showing")
                return []
            }
            state.device.appInstalled = true
            if let version = page.version { state.device.installedVersion = version }
            state.narrate("\(page.store.title): \(page.purpose == .install ? "installed" : "updated to")\(page.version.map { " v\($0)" } ?? ""); the app opens with the link")
            return state.appReceives(page.thenOpens)

        case .appOpened:
            state.location = .app
            state.narrate("back to the app at \(state.screen.name)")
            return []

        case .reloadUserTapped:
            guard let token = state.session?.idToken else {
                state.narrate("reload needs a signed-in user")
                return []
            }
            state.narrate("reload user: accounts:lookup with idToken")
            return state.start(.call(.lookup(LookupRequest(idToken: token)), by: .app))

        case .subscribeTapped:
            guard let session = state.session else {
                state.pendingDestination = .subscribe
                state.screen = .signIn
                state.narrate("subscribe needs sign-in")
                return []
            }
            guard session.emailVerified else {
                state.pendingDestination = .subscribe
                state.screen = .verifyEmail
                state.narrate("subscribe refused: cached user says emailVerified false")
                return []
            }
            state.subscribed = true
            state.screen = .subscribe
            state.narrate("subscription completed for \(Narration.safe(session.email))")
            return []

        case .signOutTapped:
            state.session = nil
            state.flow = nil
            state.screen = .articles
            state.location = .app
            state.narrate("signed out")
            return []

        case .settingsEdited(let settings):
            state.narrate("settings: \(Narration.changes(from: state.settings, to: settings))")
            state.settings = settings
            return []

        case .deviceEdited(let device):
            state.device = device
            let version = device.installedVersion.map { " v\($0)" } ?? ""
            state.narrate("device: \(Narration.safe(device.osName)), app \(device.appInstalled ? "installed\(version)" : "not installed"), links \(device.linksVerified ? "verified" : "not verified"), mail \(device.mailClient.rawValue)\(device.mailScanner ? ", mail scanner" : "")")
            return []

        case .projectEdited(let project):
            state.project = project
            state.narrate("project \(Narration.safe(project.projectId)): \(project.mobileLinkStyle.rawValue), authorized domains \(project.authorizedDomains.map(Narration.safe).joined(separator: ", ")); the world restarts with it")
            return state.start(.applyProject(project))

        case .continueURLBaseEdited(let base):
            state.continueURLBase = base
            state.narrate("continue URLs now start with \(Narration.safe(base))")
            return []

        case .localeEdited(let locale):
            state.locale = locale
            state.narrate(locale.map { "emails requested with X-Firebase-Locale \($0)" } ?? "emails requested without X-Firebase-Locale: the project's default language")
            return []

        case .clockAdvanceRequested(let seconds):
            state.narrate("advance the project clock by \(Narration.duration(seconds))")
            return state.start(.advanceClock(seconds: seconds))

        case .worldResetRequested:
            state.narrate("reset the world: preset users, no codes, empty mailbox, clock at its start")
            return state.start(.resetWorld)

        case .retryTapped:
            guard let retry = state.banner?.retry else {
                state.narrate("nothing to retry")
                return []
            }
            state.banner = nil
            state.narrate("retry requested by the user")
            if case .call(.sendOobCode(let request, _), .app) = retry {
                state.flow = FlowProgress(kind: FlowKind(request.requestType), step: .requesting, email: request.email ?? state.session?.email, continueURL: request.continueUrl)
            }
            return state.start(retry)

        case .errorDismissed:
            guard state.banner != nil else { return [] }
            state.banner = nil
            state.narrate("error dismissed")
            return []

        case .callSucceeded(let call, let caller, let reply):
            state.busy.remove(caller == .mailScanner ? .scanner : call.busyTask)
            return state.handleSuccess(call, by: caller, reply)

        case .callFailed(let call, let caller, let failure):
            state.busy.remove(caller == .mailScanner ? .scanner : call.busyTask)
            return state.handleFailure(call, by: caller, failure)

        case .mailboxRefreshed(let messages):
            state.busy.remove(.mailbox)
            let added = messages.count - state.inbox.count
            state.inbox = messages
            state.narrate(added > 0 ? "mailbox: \(added) new, \(messages.count) in all" : "mailbox: \(messages.count) message\(messages.count == 1 ? "" : "s"), nothing new")
            return state.scanNewMessages()

        case .clockAdvanced(let now):
            state.busy.remove(.clock)
            state.now = now
            state.narrate("project clock now \(Narration.timestamp(now))")
            return []

        case .worldReset(let now):
            var fresh = AppState(device: state.device, settings: state.settings, project: state.project, continueURLBase: state.continueURLBase, locale: state.locale)
            fresh.narration = state.narration
            fresh.exchanges = state.exchanges
            fresh.exchangeCount = state.exchangeCount
            fresh.now = now
            state = fresh
            state.narrate("world reset: signed out, empty mailbox\(now.map { ", clock at \(Narration.timestamp($0))" } ?? "")")
            return []

        case .serviceFailed(let effect, let failure):
            state.busy.remove(effect.busyTask)
            state.narrate("\(effect.summary) failed: \(Narration.describe(failure))")
            state.banner = ErrorBanner(message: "\(effect.summary) failed: \(Narration.describe(failure))", code: failure.serverCode, retry: effect)
            return []

        case .exchangesUpdated(let records, let total):
            state.exchanges = Array(records.suffix(AppState.exchangeWindow))
            state.exchangeCount = total
            return []
        }
    }
}

extension FlowKind {
    init(_ requestType: OobRequestType) {
        switch requestType {
        case .passwordReset: self = .passwordReset
        case .emailSignIn: self = .emailLinkSignIn
        default: self = .verifyEmail
        }
    }

    var requestType: OobRequestType {
        switch self {
        case .passwordReset: .passwordReset
        case .verifyEmail: .verifyEmail
        case .emailLinkSignIn: .emailSignIn
        }
    }

    /// Where the user starts this flow over after a failure.
    var restartScreen: AppScreen {
        switch self {
        case .passwordReset: .forgotPassword
        case .verifyEmail: .verifyEmail
        case .emailLinkSignIn: .signIn
        }
    }
}

extension Effect {
    var busyTask: BusyTask {
        switch self {
        case .call(let call, let caller): caller == .mailScanner ? .scanner : call.busyTask
        case .refreshMailbox: .mailbox
        case .advanceClock: .clock
        case .resetWorld, .applyProject: .resetWorld
        }
    }

    var summary: String {
        switch self {
        case .call(let call, _): call.operation.rawValue
        case .refreshMailbox: "mailbox refresh"
        case .advanceClock: "clock advance"
        case .resetWorld: "world reset"
        case .applyProject: "project change"
        }
    }
}

// MARK: - Transitions

extension AppState {
    /// Appends a line, sanitized whole (whatever untrusted text it quotes), with action codes and
    /// API keys in links masked (protocol.md section 7).
    mutating func narrate(_ line: String) {
        let safe = UntrustedText.sanitize(line)
        // Only a line with a query (`=`, or `%3D` when encoded) can hold a code or key.
        let mayHoldSecrets = safe.utf8.contains { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "%") }
        narration.append(mayHoldSecrets ? SecretMasking.maskLinks(in: safe) : safe)
    }

    /// Marks the effect's work as busy and returns it.
    mutating func start(_ effect: Effect) -> [Effect] {
        busy.insert(effect.busyTask)
        return [effect]
    }

    /// The path the user was trying to reach: where a continue URL should bring them back.
    var resumePath: String {
        pendingDestination?.path ?? screen.path ?? "/"
    }

    /// Shows `target`, or the gate in front of it (sign-in, verify email), remembering the target.
    mutating func navigate(to target: AppScreen, reason: String) -> [Effect] {
        location = .app
        if target.needsSignIn, session == nil {
            pendingDestination = target
            screen = .signIn
            narrate("\(reason): \(target.name) is for members: sign in first (pending destination \(target.name))")
            return []
        }
        if target == .subscribe, let session, !session.emailVerified {
            pendingDestination = target
            screen = .verifyEmail
            narrate("\(reason): /subscribe needs a verified email and the cached user says emailVerified false (stale until reloaded)")
            return []
        }
        screen = target
        if pendingDestination == target { pendingDestination = nil }
        narrate("\(reason): at \(target.name)")
        if let flow, flow.step != .completed, let destination = flow.destination, destination == target,
           flow.step == .signingIn || flow.step == .reloadingUser || flow.step == .handledInWebWidget {
            self.flow?.step = .completed
            narrate("\(flow.kind.rawValue) complete: resumed at \(target.name) from continueUrl \(Narration.safe(flow.continueURL))")
        }
        return []
    }

    /// After sign-in or reload: go where the user was heading.
    mutating func resume() -> [Effect] {
        if let destination = flow?.destination ?? pendingDestination {
            return navigate(to: destination, reason: "resume")
        }
        switch screen {
        case .signIn, .newPassword, .confirmEmailForSignIn, .forgotPassword:
            return navigate(to: .articles, reason: "resume")
        default:
            if flow?.step == .signingIn || flow?.step == .reloadingUser { flow?.step = .completed }
            return []
        }
    }

    /// The settings the app sends: the template, with the continue URL of the screen being reached
    /// when the template has none.
    func settingsToSend() -> ActionCodeSettings {
        var sent = settings
        if sent.url == nil { sent.url = continueURLBase + resumePath }
        return sent
    }

    mutating func requestEmail(_ type: OobRequestType, email: String?) -> [Effect] {
        location = .app
        banner = nil
        let sent = settingsToSend()
        if let problem = sent.validate(for: clientPlatform, requestType: type).first {
            narrate("sendOobCode \(type.rawValue) refused by the \(clientPlatform.sdkName) SDK before sending: \(problem.code) (\(problem.field)): \(Narration.safe(problem.message))")
            banner = ErrorBanner(message: Narration.safe(problem.message), code: AuthErrorCode(problem.code), retry: nil)
            return []
        }
        let request = SendOobCodeRequest(requestType: type, email: type == .verifyEmail ? nil : email, idToken: type == .verifyEmail ? session?.idToken : nil, settings: sent, clientType: clientPlatform)
        flow = FlowProgress(kind: FlowKind(type), step: .requesting, email: email, continueURL: sent.url)
        sentSettings = sent
        narrate("sendOobCode \(type.rawValue) for \(Narration.safe(email)) with \(Narration.describe(request))")
        return start(.call(.sendOobCode(request, locale: locale), by: .app))
    }
}

extension FlowProgress {
    /// The app screen the continue URL names.
    var destination: AppScreen? {
        continueURL.flatMap(AppState.appScreen(forContinueURL:))
    }
}
