import ActionFlowBackend
import ActionFlowClient
import ActionFlowModel
import Foundation
import Synchronization

/// The inspector's panes as blocks. Editable panes send the client a whole edited value
/// (`settingsEdited`, `deviceEdited`, `projectEdited`); the client decides what it means.
enum InspectorContent {
    static func blocks(_ tab: InspectorTab, _ session: Session, _ ui: UIState) -> [Block] {
        let blocks = content(tab, session, ui)
        // The field being typed in says what is wrong with its text as typed.
        guard let typing = ui.editing else { return blocks }
        return blocks.map { block in
            guard case .control(var control) = block, control.id == typing.id, let field = control.field else { return block }
            control.note = validate(field, typing.editor.text, session: session)
            return .control(control)
        }
    }

    private static func content(_ tab: InspectorTab, _ session: Session, _ ui: UIState) -> [Block] {
        switch tab {
        case .flow: flowTimeline(session, watching: ui.watching) + [.blank] + flowNarration(session)
        case .settings: settings(session, typing: ui.editing)
        case .device: device(session)
        case .link: link(session, readOnly: ui.readOnly)
        case .network: network(session, ui)
        case .project: project(session) + doctor(session, ui.doctor)
        case .mailbox: mailbox(session)
        case .sequence: SequencePane.blocks(session, width: 100).body
        }
    }

    // MARK: Flow

    static func flowTitle(_ kind: FlowKind) -> String {
        switch kind {
        case .passwordReset: "Password reset"
        case .verifyEmail: "Email verification"
        case .emailLinkSignIn: "Email-link sign-in"
        }
    }

    /// The Flow pane in two parts: the timeline (kept in view) and the narration (scrolls,
    /// newest last).
    /// Narrow panes show what each step does; wide ones also its state name.
    static func flowTimeline(_ session: Session, width: Int = 100, watching: Bool = false) -> [Block] {
        var blocks: [Block] = []
        if let flow = session.app.flow {
            // A link the app asked for can still open in the web widget (a webmail's in-app
            // browser): then the widget's steps are the ones done, before Continue and after.
            let inApp = flow.handledInApp(asked: session.app.settings.handleCodeInApp)
            let device = session.app.device
            // A phone without the app can still have the link handled in the app, once the store installed it.
            let place = !inApp ? "by the web widget" : device.platform != .desktop && !device.appInstalled ? "in the app once installed" : "in the \(Vocabulary.app(on: device))"
            blocks.append(.heading("\(flowTitle(flow.kind)) · handled \(place)"))
            let steps = FlowKind.plan(for: flow.kind, inApp: inApp)
            let current = steps.firstIndex { $0.0 == flow.step }
            for (index, step) in steps.enumerated() {
                let marker: Span
                let role: Role
                if let current, index < current {
                    marker = Span(" ✓ ", .success)
                    role = .text
                } else if index == current {
                    marker = Span(" ▶ ", .current)
                    role = .title
                } else {
                    marker = Span(" · ", .muted)
                    role = .muted
                }
                let name = width >= 56 ? [Span(" \(step.0.rawValue.padded(toColumns: 23))", role)] : [Span(" ", role)]
                blocks.append(.line([marker] + name + [Span(Vocabulary.said(step.1, on: device), role == .title ? .title : (role == .text ? .text : .muted))]))
            }
            if current == nil {
                blocks.append(.line([Span(" ▶ ", .current), Span(" \(flow.step.rawValue)", .title)]))
            }
            if let url = flow.continueURL {
                blocks.append(.pair(" continue", url, .link, nameWidth: 10))
            }
        } else if session.capture != nil {
            blocks.append(.heading(watching ? "Live traffic" : "Captured traffic"))
            blocks.append(.paragraph(watching ? "Each call and action link as the server answers it." : "Each call and action link of the capture, in order; n plays the next.", .muted))
            if let earlier = session.earlier { blocks.append(.paragraph(earlier.summary, .muted)) }
        } else {
            blocks.append(.heading("No email action in progress"))
            blocks.append(.paragraph(startHint(session.app.screen), .muted))
        }
        if let link = session.app.coldStartLink {
            // Where the resumed screen came from when the app had nothing else.
            blocks.append(.pair(" cold start", SecretMasking.maskLinks(in: UntrustedText.sanitize(link)), .link, nameWidth: 10))
        }
        return blocks
    }

    /// How to start an email action from the screen the app shows now.
    static func startHint(_ screen: AppScreen) -> String {
        switch screen {
        case .signIn: "Forgot password? starts a password reset; Email me a sign-in link starts an email-link sign-in."
        case .forgotPassword: "Send reset email starts a password reset."
        case .verifyEmail: "Send verification email starts an email verification."
        default: "Open a members-only article signed out, or Subscribe unverified, to start one."
        }
    }

    static func flowNarration(_ session: Session) -> [Block] {
        var blocks: [Block] = [.heading("Narration")]
        let (total, shown) = session.narrationTail(200)
        if total == 0 { blocks.append(.paragraph("Nothing has happened yet.", .muted)) }
        let start = total - shown.count
        for (offset, line) in shown.enumerated() {
            let number = String(start + offset + 1)
            blocks.append(.item(number.padded(toColumns: 4), line, offset + start == total - 1 ? .text : .muted))
        }
        return blocks
    }

    // MARK: Settings

    private static func optional(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// The SDK's checks on the settings as the session sends them: an unset `url` is filled with
    /// the page being opened, so it is checked as that.
    private static func validationError(_ settings: ActionCodeSettings, field: String, session: Session, requestType: OobRequestType) -> Note? {
        let sent = session.app.settingsToSend(settings)
        return sent.validate(for: session.app.clientPlatform, requestType: requestType).first { $0.field == field }
            .map { Note("✗ \($0.code): \($0.message)", .error) }
    }

    private static func settingsText(_ session: Session, _ id: String, _ label: String, _ keyPath: WritableKeyPath<ActionCodeSettings, String?> & Sendable, placeholder: String, requestType: OobRequestType) -> Control {
        let settings = session.app.settings
        let field = String(id.dropFirst("settings.".count))
        return Control(id: id, label: label, kind: .text(value: settings[keyPath: keyPath] ?? "", placeholder: placeholder, secret: false),
                       note: validationError(settings, field: field, session: session, requestType: requestType), field: .setting(id))
    }

    private static func settingsToggle(_ session: Session, _ id: String, _ label: String, _ keyPath: WritableKeyPath<ActionCodeSettings, Bool> & Sendable, requestType: OobRequestType) -> Control {
        let settings = session.app.settings
        let field = String(id.dropFirst("settings.".count))
        var edited = settings
        edited[keyPath: keyPath].toggle()
        return Control(id: id, label: label, kind: .toggle(settings[keyPath: keyPath]),
                       note: validationError(settings, field: field, session: session, requestType: requestType),
                       forward: [.send(.settingsEdited(edited))])
    }

    static func findingNote(_ finding: Finding) -> Note {
        let role: Role = switch finding.severity {
        case .danger: .error
        case .warning: .warning
        case .info: .accent
        }
        let mark = finding.severity == .info ? "i" : "!"
        return Note("\(mark) \(finding.message)", role)
    }

    /// Whether a pane's content follows a field as it is typed in, not only once it is saved:
    /// the panes with text fields, whose notes (and the Settings findings) follow the typing.
    static func followsTyping(_ tab: InspectorTab) -> Bool { tab == .settings || tab == .device || tab == .project }

    // MARK: Text fields

    /// What saving `text` in a text field asks for.
    static func commit(_ control: Control, _ text: String, session: Session) -> [InterfaceMessage] {
        guard let field = control.field else { return [] }
        switch field {
        case .draft(let id): return [.send(.draftEdited(field: id, text: text))]
        case .setting(let id):
            guard let setting = settingsTextFields.first(where: { $0.id == id }) else { return [] }
            var edited = session.app.settings
            edited[keyPath: setting.keyPath] = optional(text)
            return [.send(.settingsEdited(edited))]
        case .continueURLBase: return [.send(.continueURLBaseEdited(text))]
        case .locale:
            let trimmed = text.trimmingWhitespace()
            return [.send(.localeEdited(trimmed.isEmpty ? nil : trimmed))]
        case .deviceOSName:
            var device = session.app.device
            device.osName = text
            return [.send(.deviceEdited(device))]
        case .deviceVersion:
            guard text.isEmpty || Int(text) != nil else { return [] }
            var device = session.app.device
            device.installedVersion = Int(text)
            return [.send(.deviceEdited(device))]
        case .project(let id):
            guard let apply = projectTextFields.first(where: { $0.id == id })?.apply,
                  let project = try? edited(session.project, { apply(text, &$0) }).get() else { return [] }
            return [.send(.projectEdited(project))]
        case .lifetime(let id):
            guard let keyPath = lifetimeFields.first(where: { $0.id == id })?.keyPath, let duration = try? SimulatedDuration(parsing: text),
                  let project = try? edited(session.project, { $0.codeLifetimes[keyPath: keyPath] = duration.timeInterval }).get() else { return [] }
            return [.send(.projectEdited(project))]
        }
    }

    /// What is wrong with `text` in a text field, as it is typed; nil when nothing is.
    static func validate(_ field: FieldAction, _ text: String, session: Session) -> Note? {
        switch field {
        case .draft, .continueURLBase, .deviceOSName: return nil
        case .setting(let id):
            guard let setting = settingsTextFields.first(where: { $0.id == id }) else { return nil }
            var edited = session.app.settings
            edited[keyPath: setting.keyPath] = optional(text)
            let requestType = (session.app.flow?.kind ?? .passwordReset).requestType
            return validationError(edited, field: String(id.dropFirst("settings.".count)), session: session, requestType: requestType)
        case .locale: return localeNote(text.trimmingWhitespace(), session: session)
        case .deviceVersion: return text.isEmpty || Int(text) != nil ? nil : Note("✗ a whole number (version code or build number)", .error)
        case .project(let id):
            guard let apply = projectTextFields.first(where: { $0.id == id })?.apply else { return nil }
            if case .failure(let broken) = edited(session.project, { apply(text, &$0) }) { return Note("✗ \(broken.message)", .error) }
            return nil
        case .lifetime:
            do {
                _ = try SimulatedDuration(parsing: text)
                return nil
            } catch {
                return Note("✗ \(error)", .error)
            }
        }
    }

    /// The settings as the app will send them, with the field being typed in (`typing`) as typed.
    static func settingsAsTyped(_ session: Session, typing: Editing?) -> ActionCodeSettings {
        var settings = session.app.settings
        if let typing, let field = settingsTextFields.first(where: { $0.id == typing.id }) {
            settings[keyPath: field.keyPath] = optional(typing.editor.text)
        }
        return session.app.settingsToSend(settings)
    }

    /// The settings' text fields: control id, label, the setting, and what an empty field means.
    static let settingsTextFields: [(id: String, label: String, keyPath: WritableKeyPath<ActionCodeSettings, String?> & Sendable, placeholder: String)] = [
        ("settings.url", "url", \.url, "(the page being opened)"),
        ("settings.iOSBundleID", "iOSBundleID", \.iOSBundleID, "(unset)"),
        ("settings.androidPackageName", "androidPackageName", \.androidPackageName, "(unset)"),
        ("settings.androidMinimumVersion", "androidMinimumVersion", \.androidMinimumVersion, "(unset)"),
        ("settings.linkDomain", "linkDomain", \.linkDomain, "(project default)"),
        ("settings.dynamicLinkDomain", "dynamicLinkDomain", \.dynamicLinkDomain, "(legacy, unset)"),
    ]

    private static func settings(_ session: Session, typing: Editing?) -> [Block] {
        let requestType = (session.app.flow?.kind ?? .passwordReset).requestType
        // Checked as the next send will carry them: an unset url is the page being opened, and
        // a field being typed in counts as typed.
        let findings = SettingsFindings.findings(for: settingsAsTyped(session, typing: typing), requestType: requestType, project: session.project)
        var blocks: [Block] = [
            .heading("ActionCodeSettings"),
            .paragraph("Checked as the \(session.app.clientPlatform.sdkName) SDK would for \(requestType.rawValue); used by the next send.", .muted),
            .blank,
        ]
        // An empty url sends the page being opened: the field says which.
        let opened = session.app.settings.url == nil ? session.app.settingsToSend(session.app.settings).url : nil
        func text(_ index: Int) -> Block {
            let field = settingsTextFields[index]
            let placeholder = index == 0 ? opened.map { "(the page being opened: \($0))" } ?? field.placeholder : field.placeholder
            return .control(settingsText(session, field.id, field.label, field.keyPath, placeholder: placeholder, requestType: requestType))
        }
        blocks.append(text(0))
        blocks.append(.control(settingsToggle(session, "settings.handleCodeInApp", "handleCodeInApp", \.handleCodeInApp, requestType: requestType)))
        blocks += [text(1), text(2)]
        blocks.append(.control(settingsToggle(session, "settings.androidInstallIfNotAvailable", "androidInstallIfNot…", \.androidInstallIfNotAvailable, requestType: requestType)))
        blocks += [text(3), text(4), text(5)]
        let base = session.app.continueURLBase
        blocks.append(.control(Control(id: "settings.base", label: "app web origin", kind: .text(value: base, placeholder: "https://www.example.com", secret: false),
                                       field: .continueURLBase)))
        blocks.append(.control(localeField(session)))
        blocks.append(.blank)
        blocks.append(.heading("Findings"))
        if findings.isEmpty { blocks.append(.paragraph("None: these settings look sound.", .success)) }
        for finding in findings {
            let note = findingNote(finding)
            blocks.append(.paragraph(note.text, note.role))
        }
        return blocks
    }

    /// The app's `languageCode`, sent as `X-Firebase-Locale`; empty sends none.
    private static func localeField(_ session: Session) -> Control {
        let locale = session.app.locale ?? ""
        return Control(id: "settings.locale", label: "languageCode", kind: .text(value: locale, placeholder: "(none: project default \(session.project.defaultLocale))", secret: false),
                       note: localeNote(locale, session: session), field: .locale)
    }

    private static func localeNote(_ locale: String, session: Session) -> Note? {
        let fallback = session.project.defaultLocale
        guard !locale.isEmpty, MailTemplates.language(for: locale) == nil else { return nil }
        return Note("no email templates: falls back to \(MailTemplates.name(of: fallback)) (\(fallback))", .warning)
    }

    // MARK: Device

    private static func device(_ session: Session) -> [Block] {
        let device = session.app.device
        func edit(_ change: (inout Device) -> Void) -> [InterfaceMessage] {
            var edited = device
            change(&edited)
            return [.send(.deviceEdited(edited))]
        }
        func platform(_ direction: Int) -> [InterfaceMessage] {
            let all = Device.Platform.allCases
            let index = ((all.firstIndex(of: device.platform) ?? 0) + direction + all.count) % all.count
            let preset: Device = switch all[index] {
            case .iOS: .iPhone
            case .android: .pixel
            case .desktop: .desktop
            }
            return edit {
                $0.platform = preset.platform
                $0.osName = preset.osName
                if preset.platform == .desktop { $0.appInstalled = false }
                if $0.sdk?.platform.device != preset.platform { $0.sdk = nil }
            }
        }
        // No profile, then each profile for the platform, named by the newest release read.
        let sdkChoices: [SDKProfile?] = [nil] + SDKProfile.choices(for: device.platform)
        func sdk(_ direction: Int) -> [InterfaceMessage] {
            let index = sdkChoices.firstIndex { $0?.range == device.sdk?.range && $0?.platform == device.sdk?.platform } ?? 0
            let next = sdkChoices[(index + direction + sdkChoices.count) % sdkChoices.count]
            return edit { $0.sdk = next }
        }
        // With two devices the pane is about the one in focus: its name says which.
        let heading = session.hasSeveralDevices ? "Device · \(session.focusedDevice.name.title)" : "Device"
        var blocks: [Block] = [.heading(heading), .paragraph("Changes apply to the next tap of a link.", .muted), .blank]
        blocks.append(.control(Control(id: "device.platform", label: "Platform", kind: .choice(device.platform.title), forward: platform(1), backward: platform(-1))))
        blocks.append(.control(Control(id: "device.os", label: "OS name", kind: .text(value: device.osName, placeholder: "Android 14", secret: false), field: .deviceOSName)))
        blocks.append(.control(Control(id: "device.installed", label: "App installed", kind: .toggle(device.appInstalled), forward: edit { $0.appInstalled.toggle() })))
        blocks.append(.control(Control(id: "device.version", label: "Installed version",
                                       kind: .text(value: device.installedVersion.map(String.init) ?? "", placeholder: "(none)", secret: false), field: .deviceVersion)))
        let linksLabel = device.platform == .iOS ? "Universal links OK" : "App links verified"
        blocks.append(.control(Control(id: "device.links", label: linksLabel, kind: .toggle(device.linksVerified), forward: edit { $0.linksVerified.toggle() })))
        let clientName = device.mailClient == .native ? "native app" : "webmail in-app browser"
        blocks.append(.control(Control(id: "device.mail", label: "Mail client", kind: .choice(clientName), note: device.mailClient == .webmailInAppBrowser ? Note("universal links do not fire in an in-app browser", .warning) : nil,
                                       forward: edit { $0.mailClient = $0.mailClient == .native ? .webmailInAppBrowser : .native })))
        blocks.append(.control(Control(id: "device.scanner", label: "Mail scanner", kind: .toggle(device.mailScanner),
                                       note: device.mailScanner ? Note("pre-opens every link: single-use codes may be spent", .warning) : nil,
                                       forward: edit { $0.mailScanner.toggle() })))
        blocks.append(.control(Control(id: "device.killed", label: "Killed before tap", kind: .toggle(device.appKilledBeforeTap),
                                       note: device.appKilledBeforeTap ? Note("the next link cold-starts the app: only its continue URL survives", .warning) : nil,
                                       forward: edit { $0.appKilledBeforeTap.toggle() })))
        blocks.append(.control(Control(id: "device.sdk", label: "App's SDK", kind: .choice(device.sdk?.name ?? "as documented"),
                                       note: device.sdk.map { Note("\($0.range): reads links as \($0.readAt) does", .muted) },
                                       forward: sdk(1), backward: sdk(-1))))
        if device.sdk != nil {
            blocks.append(.control(Control(id: "device.wholeLink", label: "SDK gets", kind: .choice(device.passesWholeLink ? "whole link" : "action URL"),
                                           note: Note(device.passesWholeLink ? "the Hosting link as the system gave it" : "taken out of the Hosting link first", .muted),
                                           forward: edit { $0.passesWholeLink.toggle() }, backward: edit { $0.passesWholeLink.toggle() })))
        }
        return blocks
    }

    // MARK: Link

    private static func link(_ session: Session, readOnly: Bool) -> [Block] {
        guard let visit = session.app.lastLink else {
            // A replay offers nothing it refuses: no tap, no paste.
            let hint = session.capture == nil
                ? readOnly ? "No link tapped yet at this point of the recording." : "No link tapped yet. Open a message in the mailbox and tap its link, or paste one with p."
                : "No action link in the traffic yet: each one found (in an answer, the emulator's listing, a request or a redirect) is taken apart here."
            return [.heading("Link anatomy"), .paragraph(hint, .muted)]
        }
        var blocks: [Block] = [.heading("Link anatomy"), .verbatim(SecretMasking.maskLinks(in: visit.link), .link, indent: 0), .pair(session.capture == nil ? "went to" : "found", visit.outcome, .accent, nameWidth: 8), .blank]
        do {
            let anatomy = try LinkInspector.inspect(visit.link, authorizedDomains: session.project.authorizedDomains)
            blocks.append(.pair("mode", "\(anatomy.mode ?? "(none)") → \(anatomy.operation.rawValue)", .text, nameWidth: 12))
            if let authorized = anatomy.continueUrlAuthorized {
                blocks.append(.pair("continue", authorized ? "✓ authorized domain" : "✗ not an authorized domain", authorized ? .success : .error, nameWidth: 12))
            }
            for (index, layer) in anatomy.layers.enumerated() {
                blocks.append(.blank)
                blocks.append(.line([Span("\(index + 1) ", .badge), Span(layer.kind.title, .title), Span("  \(layer.host)", .muted)]))
                let width = min(14, (layer.parameters.map { $0.name.displayWidth }.max() ?? 4) + 1)
                for parameter in layer.parameters {
                    let shown = SecretMasking.mask(parameter.value, named: parameter.name)
                    blocks.append(.pair("  " + parameter.name, shown, parameter.name == "oobCode" ? .warning : .text, nameWidth: width + 2))
                    if let meaning = parameter.meaning {
                        blocks.append(.item(String(repeating: " ", count: width + 3), meaning, .muted))
                    }
                }
            }
            if !anatomy.findings.isEmpty {
                blocks.append(.blank)
                blocks.append(.heading("Findings"))
                for finding in anatomy.findings {
                    let note = findingNote(finding)
                    blocks.append(.paragraph(note.text, note.role))
                }
            }
        } catch {
            blocks.append(.paragraph("✗ \(error.description)", .error))
        }
        return blocks + capturedLinks(session, besides: visit.link)
    }

    /// A capture's other links, newest first, one line each: the pane takes the newest apart, and
    /// a reviewer still sees every link the traffic holds.
    private static func capturedLinks(_ session: Session, besides shown: String) -> [Block] {
        guard session.capture != nil else { return [] }
        var seen: Set<String> = [shown]
        var lines: [Block] = []
        for entry in session.journal.reversed() {
            guard case .captured(.actionLink(let link)) = entry.fact, seen.insert(link.link).inserted else { continue }
            let authorized = (try? LinkInspector.inspect(link.link, authorizedDomains: session.project.authorizedDomains))?.continueUrlAuthorized
            let mark = authorized.map { $0 ? " ✓" : " ✗ not authorized" } ?? ""
            lines.append(.item("· ", "\(link.mode ?? "(no mode)") link, \(link.source.narration) (\(CaptureNumbering.entry(link.entry))), continue \(SecretMasking.maskLinks(in: link.continueUrl ?? "(none)"))\(mark)",
                               authorized == false ? .warning : .text))
        }
        guard !lines.isEmpty else { return [] }
        return [.blank, .heading("Other links in the capture (\(lines.count))")] + lines
    }

    // MARK: Network

    private static let exchangeControlPrefix = "net."

    /// The exchange a Network pane control shows, nil for another control.
    static func exchangeID(ofControl id: String) -> Int? {
        id.hasPrefix(exchangeControlPrefix) ? Int(id.dropFirst(exchangeControlPrefix.count)) : nil
    }

    private static func network(_ session: Session, _ ui: UIState) -> [Block] {
        var blocks: [Block] = [.heading("Network · \(session.exchangeCount) exchange\(session.exchangeCount == 1 ? "" : "s")")]
        if session.exchanges.isEmpty {
            blocks.append(.paragraph("No requests yet.", .muted))
        }
        for record in session.exchanges {
            let status = record.status.map(String.init) ?? "—"
            let outcome = record.failure.map { " \($0.serverCode?.rawValue ?? "network")" } ?? ""
            let millis = String(format: "%.1f ms", record.duration * 1000)
            // The method, its status and error: the path's `accounts:` and the query (a masked
            // key) only in the expanded request, since at 80 columns they pushed the error out.
            let call = record.request.split(separator: "?", maxSplits: 1).first.map(String.init) ?? record.request
            let label = "#\(record.id) \(call.replacingEvery("POST /v1/accounts:", with: "").replacingEvery("POST /v1/", with: "")) \(status)\(outcome) · \(millis)"
            let expanded = ui.expandedExchange == record.id
            blocks.append(.control(.button(exchangeControlPrefix + String(record.id), label, [.toggleExchange(record.id)])))
            if expanded {
                blocks.append(.line([Span("  request ", .muted), Span(record.request, .accent)]))
                for (name, value) in record.requestHeaders.sorted(by: { $0.key < $1.key }) {
                    blocks.append(.pair("  " + name, value, .muted, nameWidth: 22))
                }
                for line in UntrustedText.sanitizeLines(record.requestBody) {
                    blocks.append(.verbatim(line, .text, indent: 2))
                }
                blocks.append(.line([Span("  response ", .muted), Span(status, record.failure == nil ? .success : .error)]))
                for line in UntrustedText.sanitizeLines(record.responseBody ?? record.failure?.wireMessage ?? "") {
                    blocks.append(.verbatim(line, record.failure == nil ? .text : .error, indent: 2))
                }
            }
        }
        return blocks
    }

    // MARK: Project

    private static func list(_ items: [String]) -> String { items.joined(separator: ", ") }

    private static func parseList(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    /// A project edited and checked against the rules a project file meets: the project, or
    /// what is wrong with it.
    private static func edited(_ project: ProjectConfiguration, _ change: (inout ProjectConfiguration) -> Void) -> Result<ProjectConfiguration, ProjectRuleBroken> {
        var edited = project
        change(&edited)
        return edited.validate().first.map { .failure(ProjectRuleBroken(message: "\($0)")) } ?? .success(edited.normalized())
    }

    struct ProjectRuleBroken: Error {
        var message: String
    }

    /// The project's text fields: control id, label, the value shown, what an empty field
    /// means, and how a typed value changes the project.
    static let projectTextFields: [(id: String, label: String, value: @Sendable (ProjectConfiguration) -> String, placeholder: @Sendable (ProjectConfiguration) -> String,
                                    apply: @Sendable (String, inout ProjectConfiguration) -> Void)] = [
        ("project.domains", "Authorized domains", { list($0.authorizedDomains) }, { _ in "(unset)" }, { $1.authorizedDomains = parseList($0) }),
        ("project.ios", "iOS bundle id", { $0.iOSApp?.bundleId ?? "" }, { _ in "(unset)" }, { value, project in
            project.iOSApp = value.isEmpty ? nil : RegisteredIOSApp(bundleId: value, appStoreId: project.iOSApp?.appStoreId, teamId: project.iOSApp?.teamId)
        }),
        ("project.android", "Android package", { $0.androidApp?.packageName ?? "" }, { _ in "(unset)" }, { value, project in
            project.androidApp = value.isEmpty ? nil : RegisteredAndroidApp(packageName: value, sha1: project.androidApp?.sha1 ?? [], sha256: project.androidApp?.sha256 ?? [], latestVersion: project.androidApp?.latestVersion ?? 1)
        }),
        ("project.hosting", "Hosting domains", { list($0.hostingDomains) }, { _ in "(unset)" }, { $1.hostingDomains = parseList($0) }),
        ("project.fdl", "Dynamic Links domains", { list($0.dynamicLinkDomains) }, { _ in "(unset)" }, { $1.dynamicLinkDomains = parseList($0) }),
        ("project.handler", "Action handler URL", { $0.actionHandlerURL ?? "" }, { $0.defaultActionHandlerURL }, { value, project in
            project.actionHandlerURL = value.isEmpty ? nil : value
        }),
    ]

    /// The code lifetimes: control id, label and which lifetime.
    static let lifetimeFields: [(id: String, label: String, keyPath: WritableKeyPath<CodeLifetimes, TimeInterval> & Sendable)] = [
        ("project.lifetime.reset", "Password reset", \.passwordReset),
        ("project.lifetime.verify", "Verify email", \.verifyEmail),
        ("project.lifetime.signIn", "Email-link sign-in", \.emailSignIn),
    ]

    private static func project(_ session: Session) -> [Block] {
        let project = session.project
        // Edits meet the rules a project file does; one that breaks them is not sent, its note says why.
        func edit(_ change: (inout ProjectConfiguration) -> Void) -> [InterfaceMessage] {
            (try? edited(project, change).get()).map { [.send(.projectEdited($0))] } ?? []
        }
        func text(_ id: String) -> Block {
            let field = projectTextFields.first { $0.id == id }!
            return .control(Control(id: id, label: field.label, kind: .text(value: field.value(project), placeholder: field.placeholder(project), secret: false),
                                    field: .project(id)))
        }
        func lifetime(_ index: Int) -> Block {
            let field = lifetimeFields[index]
            return .control(Control(id: field.id, label: field.label,
                                    kind: .text(value: SimulatedDuration.describe(project.codeLifetimes[keyPath: field.keyPath]), placeholder: "1h", secret: false),
                                    field: .lifetime(field.id)))
        }
        var blocks: [Block] = [.heading("Project \(project.projectId)"), .paragraph("Editing restarts the simulated world with the new project.", .muted), .blank]
        blocks += [text("project.domains"), text("project.ios"), text("project.android")]
        let legacy = project.mobileLinkStyle == .firebaseDynamicLinkDomain
        let switchStyle: (inout ProjectConfiguration) -> Void = { $0.mobileLinkStyle = legacy ? .hostingDomain : .firebaseDynamicLinkDomain }
        let styleProblem: Note? = if case .failure(let broken) = edited(project, switchStyle) { Note("✗ \(broken.message)", .error) } else { nil }
        blocks.append(.control(Control(id: "project.style", label: "Link style", kind: .choice(legacy ? "Dynamic Links (legacy)" : "Hosting"),
                                       note: legacy ? Note("! Dynamic Links shut down on 2025-08-25", .warning) : styleProblem,
                                       forward: edit(switchStyle))))
        blocks += [text("project.hosting"), text("project.fdl"), text("project.handler")]
        blocks.append(.control(Control(id: "project.enumeration", label: "Enumeration protection", kind: .toggle(project.emailEnumerationProtection),
                                       forward: edit { $0.emailEnumerationProtection.toggle() })))
        blocks.append(.blank)
        blocks.append(.line([Span("Code lifetimes ", .title), Span("(assumed: Firebase does not publish them)", .muted)]))
        blocks += [lifetime(0), lifetime(1), lifetime(2)]
        blocks += fieldApps(session)
        return blocks
    }

    /// The link-domain checks of `actionflow doctor`: a button, then the last run's failures and
    /// questions, each failure with what the user meets on the phone.
    private static func doctor(_ session: Session, _ run: DoctorRun?) -> [Block] {
        var blocks: [Block] = [.blank, .line([Span("Link domains ", .title), Span("(actionflow doctor)", .muted)])]
        if let refusal = Interface.doctorRefusal(session.project, available: true) {
            return blocks + [.paragraph(refusal, .muted)]
        }
        blocks.append(.control(.button("project.doctor", run?.checks == nil && run != nil ? "Checking…" : "Check link domains", [.checkLinkDomains])))
        guard let run else {
            blocks.append(.paragraph("Fetches each link domain's association files as iOS and Android do, and checks the project's settings.", .muted))
            return blocks
        }
        guard let checks = run.checks else { return blocks }
        if run.project != session.project {
            blocks.append(.paragraph("These checks are of the project as it was before its last edit: check again.", .warning))
        }
        let count = LinkDomainDoctor.counts(checks)
        blocks.append(.paragraph("\(count.passed) passed, \(count.failed) failed, \(count.unknown) not knowable from the project file", count.failed > 0 ? .error : .muted))
        // Each finding is a control, so that the arrows reach every one however long the list.
        for (index, check) in checks.enumerated() where check.status != .pass {
            let phone = check.status == .fail ? check.onThePhone.map { " On the phone: \($0)." } ?? "" : ""
            let tap = check.domain.flatMap { domain in check.platform.map { tapOnDomain(domain, $0, session) } } ?? []
            blocks.append(.control(Control(id: "project.doctor.\(index)", label: "\(check.status.mark) \(check.subject)", kind: .button,
                                           note: Note("\(check.text) [\(check.source)]\(phone)\(tap.isEmpty ? "" : " Enter: tap such a link on the phone.")",
                                                      check.status == .fail ? .error : .warning),
                                           forward: tap)))
        }
        return blocks
    }

    /// A password-reset link on `domain`, tapped on a phone of `platform` whose OS could not
    /// verify the domain's association file (as the doctor found): the phone shows where it lands.
    static func tapOnDomain(_ domain: String, _ platform: LinkDomainDoctor.Platform, _ session: Session) -> [InterfaceMessage] {
        let project = session.project
        var device = platform == .apple ? Device.iPhone : Device.pixel
        device.linksVerified = false
        let payload = ActionLinkBuilder.actionURL(handler: project.effectiveActionHandlerURL, operation: .passwordReset, oobCode: "doctor-sample-code", apiKey: project.apiKey,
                                                  continueURL: session.app.continueURLBase + "/", lang: nil, tenantId: nil)
        let apps = MobileLinkApps(iOSBundleID: project.iOSApp?.bundleId, iOSAppStoreID: project.iOSApp?.appStoreId, androidPackageName: project.androidApp?.packageName)
        let link = ActionLinkBuilder.mobileLink(wrapping: payload, style: project.ownsDynamicLinkDomain(domain) ? .firebaseDynamicLinkDomain : .hostingDomain, domain: domain, apps: apps)
        return [.send(.deviceEdited(device)), .send(.linkOpened(link))]
    }

    /// The field apps' routes depend on the project and the settings alone, while every pane is
    /// prepared again after each change of the session: the last ones are kept (a build is about
    /// 3.5 million instructions, most of the Project pane's).
    private static let lastMigration = Mutex<(project: ProjectConfiguration, settings: ActionCodeSettings, migration: LinkMigration)?>(nil)

    /// The project's apps in the field before and after the move to Hosting links, for the
    /// settings the app sends now (`matrix --migration` has the reasons).
    private static func fieldApps(_ session: Session) -> [Block] {
        let project = session.project
        guard !project.apps.isEmpty, !project.dynamicLinkDomains.isEmpty else { return [] }
        let settings = session.app.settingsToSend()
        let migration = lastMigration.withLock { kept in
            if let kept, kept.project == project, kept.settings == settings { return kept.migration }
            let built = LinkMigration.build(project: project, settings: settings, requestType: .passwordReset)
            kept = (project, settings, built)
            return built
        }
        func place(_ route: TapRoute) -> String {
            switch route.destination {
            case .app, .store: "app"
            case .webWidget: "widget"
            case .browser: "browser"
            }
        }
        func outcome(_ side: LinkMigration.Side) -> String {
            guard side.refusal == nil, let tap = side.tap else { return "refused" }
            var landing = place(tap)
            if let onward = side.afterContinue { landing += ", then " + place(onward) }
            switch side.appReads?.outcome {
            case .ignores?: return landing + " (ignored)"
            case .throwsError?: return landing + " (throws)"
            case .crashes?: return landing + " (crash)"
            case .handles?, nil: return landing
            }
        }
        var blocks: [Block] = [.blank, .line([Span("Apps in the field", .title)]),
                               .paragraph("Where a reset email lands now, before and after the move from Dynamic Links to Hosting links.", .muted)]
        for row in migration.rows {
            blocks.append(.pair(row.app.name, row.app.sdk.name, .text, nameWidth: 11))
            blocks.append(.pair("  before", outcome(row.before), .muted, nameWidth: 11))
            blocks.append(.pair("  after", outcome(row.after), row.after.opensApp ? .text : .warning, nameWidth: 11))
        }
        blocks.append(.paragraph("Why, and the association files: actionflow matrix --migration", .muted))
        return blocks
    }

    // MARK: Mailbox

    private static func mailbox(_ session: Session) -> [Block] {
        var blocks: [Block] = [.heading("Inbox · \(session.inbox.count) message\(session.inbox.count == 1 ? "" : "s")")]
        if session.inbox.isEmpty { blocks.append(.paragraph("No mail yet. Messages the project sends land here.", .muted)) }
        var openID: String? = nil
        if case .mailbox(let id) = session.app.location { openID = id }
        for message in session.inbox.reversed() {
            let marker = message.id == openID ? "▶ " : ""
            blocks.append(.control(.button("inbox.\(message.id)", "\(marker)\(Clock.format(message.sentAt).suffix(5)) \(message.subject)", [.send(.messageOpened(id: message.id))])))
            if message.id == openID {
                blocks.append(.pair("  to", message.to, .text, nameWidth: 8))
                blocks.append(.pair("  type", message.requestType.rawValue, .muted, nameWidth: 8))
                blocks.append(.pair("  lang", message.locale, .muted, nameWidth: 8))
                blocks += PhoneContent.mailBody(message, indent: 2)
                blocks.append(.control(.button("inbox.tap.\(message.id)", "Tap the link", [.send(.linkTapped(messageID: message.id))])))
            }
        }
        return blocks
    }
}
