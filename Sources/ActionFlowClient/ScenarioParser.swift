import ActionFlowBackend
import ActionFlowModel
import Foundation
import Yams

/// Reads scenario files (YAML). Every problem is reported with file, line, step and key.
public enum ScenarioParser {
    public static func load(contentsOf url: URL) throws(ScenarioFileError) -> Scenario {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ScenarioFileError(file: url.path, message: "cannot read the file: \(error.localizedDescription)")
        }
        return try parse(text, source: url.path)
    }

    public static func parse(_ yaml: String, source: String) throws(ScenarioFileError) -> Scenario {
        let root: Node?
        do {
            root = try YAMLComposer.compose(yaml)
        } catch {
            throw ScenarioFileError(file: source, message: "not valid YAML: \(error)")
        }
        var reader = Reader(source: source)
        guard let root, let top = root.mapping else {
            throw ScenarioFileError(file: source, line: root?.mark?.line, message: "expected a mapping with `name`, `steps` and optional `description`, `project`, `device` or `devices`, `settings`, `locale`, `continueURLBase`")
        }
        try reader.checkKeys(top, allowed: ["name", "description", "project", "device", "devices", "settings", "locale", "continueURLBase", "steps"], context: nil, step: nil)
        guard let nameNode = top["name"] else { throw reader.error(root, key: "name", "every scenario needs a `name`") }
        let name = try reader.string(nameNode, key: "name", step: nil)
        let description = try top["description"].map { node throws(ScenarioFileError) in try reader.string(node, key: "description", step: nil) } ?? ""
        let project = try top["project"].map { node throws(ScenarioFileError) in try reader.projectPatch(node) } ?? ProjectPatch()
        let device = try top["device"].map { node throws(ScenarioFileError) in try reader.device(node) } ?? .iPhone
        var devices = [NamedDevice(name: .inferred(from: device), device: device)]
        if let node = top["devices"] {
            if top["device"] != nil {
                throw reader.error(node, key: "devices", "give either `device` (one device) or `devices` (a list of one or two), not both")
            }
            devices = try reader.devices(node)
        }
        reader.devices = devices.map(\.name)
        var settings = ActionCodeSettings.iOSDefault(bundleID: "com.example.ios")
        if let node = top["settings"] { settings = try reader.settingsPatch(node, step: nil).applied(to: settings) }
        let locale = try top["locale"].map { node throws(ScenarioFileError) in try reader.string(node, key: "locale", step: nil) }
        let base = try top["continueURLBase"].map { node throws(ScenarioFileError) in try reader.string(node, key: "continueURLBase", step: nil) }
        guard let stepsNode = top["steps"] else { throw reader.error(root, key: "steps", "every scenario needs `steps`: a list of actions and expectations") }
        guard let sequence = stepsNode.sequence, !sequence.isEmpty else {
            throw reader.error(stepsNode, key: "steps", "expected a non-empty list of steps")
        }
        var steps: [ScenarioStep] = []
        for (offset, node) in sequence.enumerated() {
            let (actionNode, caption) = try reader.captioned(node, step: offset + 1)
            steps.append(ScenarioStep(number: offset + 1, line: node.mark?.line, action: try reader.action(actionNode, step: offset + 1), caption: caption))
        }
        var scenario = Scenario(name: name, description: description, source: source, project: project, device: device, settings: settings, locale: locale, continueURLBase: base, steps: steps)
        scenario.devices = devices
        return scenario
    }

    /// The project scenarios are usually played against, for checking their `project` overrides early.
    static let bundledProject = try? ProjectConfigLoader.loadDefault()

    /// Step names and what each takes, for error messages and docs/file-formats.md, "Scenario files".
    static let actionNames = [
        "open", "signIn", "forgotPassword", "requestPasswordReset", "requestVerification", "requestSignInLink",
        "confirmSignInEmail", "openMailbox", "openMessage", "tapLink", "pasteLink", "newPassword", "continue",
        "install", "update", "backToApp", "reloadUser", "addSecondFactor", "subscribe", "signOut", "advance", "device", "settings", "project",
        "resetWorld", "retry", "dismissError", "draft", "killApp", "focus", "expect",
    ]
}

/// Typed reads from YAML nodes with specific errors.
private struct Reader {
    let source: String
    /// The scenario's devices, once read: `focus` and `expect`'s `device` name one of them.
    var devices: [DeviceName] = []

    func error(_ node: Node?, step: Int? = nil, key: String?, _ message: String) -> ScenarioFileError {
        ScenarioFileError(file: source, line: node?.mark?.line, step: step, key: key, message: message)
    }

    func shown(_ node: Node) -> String {
        if node.null != nil { return "nothing" }
        if let text = node.string { return "`\(text)`" }
        if node.mapping != nil { return "a mapping" }
        if node.sequence != nil { return "a list" }
        return "nothing"
    }

    func checkKeys(_ mapping: Node.Mapping, allowed: [String], context: String?, step: Int?) throws(ScenarioFileError) {
        for key in mapping.keys {
            guard let name = key.string, allowed.contains(name) else {
                let within = context.map { " in `\($0)`" } ?? ""
                throw error(key, step: step, key: key.string ?? "?", "unknown key\(within); expected one of \(allowed.joined(separator: ", "))")
            }
        }
    }

    func string(_ node: Node, key: String, step: Int?) throws(ScenarioFileError) -> String {
        guard case .scalar(let scalar) = node, !(node.null != nil && scalar.string.isEmpty) else {
            throw error(node, step: step, key: key, "expected text, got \(shown(node))")
        }
        return scalar.string
    }

    /// Text that may name a preset user of the project played (`$verified.email`).
    func userText(_ node: Node, key: String, step: Int?) throws(ScenarioFileError) -> String {
        let text = try string(node, key: key, step: step)
        guard !UserPlaceholder.isPlaceholder(text) || UserPlaceholder(text) != nil else {
            throw error(node, step: step, key: key, "unknown placeholder `\(text)`; expected one of \(UserPlaceholder.all.joined(separator: ", "))")
        }
        return text
    }

    func optionalString(_ node: Node, key: String, step: Int?) throws(ScenarioFileError) -> String? {
        node.null != nil ? nil : try string(node, key: key, step: step)
    }

    func bool(_ node: Node, key: String, step: Int?) throws(ScenarioFileError) -> Bool {
        guard node.scalar != nil, let value = node.bool else {
            throw error(node, step: step, key: key, "expected true or false, got \(shown(node))")
        }
        return value
    }

    func int(_ node: Node, key: String, step: Int?) throws(ScenarioFileError) -> Int {
        guard node.scalar != nil, let value = node.int else {
            throw error(node, step: step, key: key, "expected a whole number, got \(shown(node))")
        }
        return value
    }

    func strings(_ node: Node, key: String, step: Int?) throws(ScenarioFileError) -> [String] {
        guard let sequence = node.sequence else {
            throw error(node, step: step, key: key, "expected a list of text, got \(shown(node))")
        }
        var values: [String] = []
        for item in sequence { values.append(try string(item, key: key, step: step)) }
        return values
    }

    func oneOf<Value>(_ node: Node, key: String, step: Int?, _ choices: [(String, Value)]) throws(ScenarioFileError) -> Value {
        let text = try string(node, key: key, step: step)
        guard let match = choices.first(where: { $0.0 == text }) else {
            throw error(node, step: step, key: key, "expected one of \(choices.map(\.0).joined(separator: ", ")), got `\(text)`")
        }
        return match.1
    }

    func duration(_ node: Node, key: String, step: Int?) throws(ScenarioFileError) -> TimeInterval {
        let text = try string(node, key: key, step: step)
        do {
            return try SimulatedDuration(parsing: text).timeInterval
        } catch {
            throw self.error(node, step: step, key: key, error.description)
        }
    }

    func mapping(_ node: Node, key: String, step: Int?) throws(ScenarioFileError) -> Node.Mapping {
        guard let mapping = node.mapping else {
            throw error(node, step: step, key: key, "expected a mapping, got \(shown(node))")
        }
        return mapping
    }

    // MARK: Sections

    func device(_ node: Node) throws(ScenarioFileError) -> Device {
        if node.scalar != nil {
            return try oneOf(node, key: "device", step: nil, [("iPhone", Device.iPhone), ("pixel", .pixel), ("desktop", .desktop)])
        }
        let mapping = try self.mapping(node, key: "device", step: nil)
        let preset = try mapping["preset"].map { node throws(ScenarioFileError) in
            try oneOf(node, key: "preset", step: nil, [("iPhone", Device.iPhone), ("pixel", .pixel), ("desktop", .desktop)])
        } ?? .iPhone
        return try checkedSDK(devicePatch(node, step: nil, allowPreset: true).applied(to: preset), node: mapping["sdk"])
    }

    /// An SDK profile runs on its own platform's devices: `ios@...` on an iPhone, `js@...` in a
    /// computer's browser, Android and its wrappers on an Android phone.
    func checkedSDK(_ device: Device, node: Node?) throws(ScenarioFileError) -> Device {
        guard let sdk = device.sdk, sdk.platform.device != device.platform else { return device }
        let fitting = SDKProfile.choices(for: device.platform).map { "\($0.platform.rawValue)@..." }
        throw error(node, key: "sdk", "\(sdk.name) is for \(sdk.platform.device.title) apps, and this device is \(device.platform.title); profiles for it: \(Set(fitting).sorted().joined(separator: ", "))")
    }

    static let deviceKeys = ["platform", "osName", "appInstalled", "installedVersion", "linksVerified", "mailClient", "mailScanner", "appKilledBeforeTap", "sdk", "passesWholeLink", "linkDomains"]

    /// `devices: [iphone, laptop]`, or items with knobs: `- {name: android, installedVersion: 9}`.
    func devices(_ node: Node) throws(ScenarioFileError) -> [NamedDevice] {
        guard let sequence = node.sequence else {
            throw error(node, key: "devices", "expected a list of one or two devices (\(DeviceName.names)), for example `devices: [iphone, laptop]`, got \(shown(node))")
        }
        var devices: [NamedDevice] = []
        for item in sequence {
            let nameNode: Node
            var patch = DevicePatch()
            if item.scalar != nil {
                nameNode = item
            } else if let mapping = item.mapping {
                try checkKeys(mapping, allowed: ["name"] + Self.deviceKeys, context: "devices", step: nil)
                guard let named = mapping["name"] else {
                    throw error(item, key: "devices", "a device with knobs needs its `name`, for example `{name: android, installedVersion: 9}`")
                }
                nameNode = named
                patch = try devicePatch(item, step: nil, key: "devices")
            } else {
                throw error(item, key: "devices", "expected a device name (\(DeviceName.names)) or a mapping with `name` and device fields, got \(shown(item))")
            }
            let text = try string(nameNode, key: "name", step: nil)
            guard let name = DeviceName(parsing: text) else {
                throw error(nameNode, key: "devices", "unknown device `\(text)`; expected one of \(DeviceName.names)")
            }
            if devices.contains(where: { $0.name == name }) {
                throw error(nameNode, key: "devices", "`\(name.rawValue)` is named twice; each device of a session has its own name")
            }
            devices.append(NamedDevice(name: name, device: try checkedSDK(patch.applied(to: name.preset), node: item.mapping?["sdk"])))
        }
        guard !devices.isEmpty, devices.count <= DeviceName.maximumCount else {
            throw error(node, key: "devices", "expected one or two devices, got \(devices.count)")
        }
        return devices
    }

    /// A device the scenario holds, by name.
    func deviceName(_ node: Node, key: String, step: Int) throws(ScenarioFileError) -> DeviceName {
        let text = try string(node, key: key, step: step)
        guard let name = DeviceName(parsing: text) else {
            throw error(node, step: step, key: key, "unknown device `\(text)`; expected one of \(DeviceName.names)")
        }
        guard devices.contains(name) else {
            let held = devices.map(\.rawValue).joined(separator: ", ")
            throw error(node, step: step, key: key, "the scenario has no \(name.rawValue): its devices are \(held) (list them under `devices:`, for example `devices: [iphone, laptop]`)")
        }
        return name
    }

    func devicePatch(_ node: Node, step: Int?, allowPreset: Bool = false, key: String = "device") throws(ScenarioFileError) -> DevicePatch {
        let mapping = try self.mapping(node, key: key, step: step)
        let keys = Self.deviceKeys
        if key == "device" { try checkKeys(mapping, allowed: (allowPreset ? ["preset"] : []) + keys, context: "device", step: step) }
        var patch = DevicePatch()
        if let value = mapping["platform"] {
            patch.platform = try oneOf(value, key: "platform", step: step, Device.Platform.allCases.map { ($0.rawValue, $0) })
        }
        if let value = mapping["osName"] { patch.osName = try string(value, key: "osName", step: step) }
        if let value = mapping["appInstalled"] { patch.appInstalled = try bool(value, key: "appInstalled", step: step) }
        if let value = mapping["installedVersion"] {
            patch.installedVersion = .some(value.null != nil ? nil : try int(value, key: "installedVersion", step: step))
        }
        if let value = mapping["linksVerified"] { patch.linksVerified = try bool(value, key: "linksVerified", step: step) }
        if let value = mapping["mailClient"] {
            patch.mailClient = try oneOf(value, key: "mailClient", step: step, Device.MailClient.allCases.map { ($0.rawValue, $0) })
        }
        if let value = mapping["mailScanner"] { patch.mailScanner = try bool(value, key: "mailScanner", step: step) }
        if let value = mapping["appKilledBeforeTap"] { patch.appKilledBeforeTap = try bool(value, key: "appKilledBeforeTap", step: step) }
        if let value = mapping["sdk"] { patch.sdk = .some(try sdkProfile(value, step: step)) }
        if let value = mapping["passesWholeLink"] { patch.passesWholeLink = try bool(value, key: "passesWholeLink", step: step) }
        if let value = mapping["linkDomains"] { patch.linkDomains = .some(value.null != nil ? nil : try strings(value, key: "linkDomains", step: step)) }
        return patch
    }

    /// `sdk: ios@11.15.0`, or `sdk: null` for an app that reads links as Firebase documents.
    func sdkProfile(_ node: Node, step: Int?) throws(ScenarioFileError) -> SDKProfile? {
        if node.null != nil { return nil }
        let text = try string(node, key: "sdk", step: step)
        do throws(SDKProfileError) {
            return try SDKProfile.named(text)
        } catch {
            throw self.error(node, step: step, key: "sdk", error.description)
        }
    }

    func settingsPatch(_ node: Node, step: Int?) throws(ScenarioFileError) -> SettingsPatch {
        let mapping = try self.mapping(node, key: "settings", step: step)
        try checkKeys(mapping, allowed: ["url", "handleCodeInApp", "iOSBundleID", "androidPackageName", "androidInstallIfNotAvailable", "androidMinimumVersion", "dynamicLinkDomain", "linkDomain"], context: "settings", step: step)
        var patch = SettingsPatch()
        if let value = mapping["url"] { patch.url = .some(try optionalString(value, key: "url", step: step)) }
        if let value = mapping["handleCodeInApp"] { patch.handleCodeInApp = try bool(value, key: "handleCodeInApp", step: step) }
        if let value = mapping["iOSBundleID"] { patch.iOSBundleID = .some(try optionalString(value, key: "iOSBundleID", step: step)) }
        if let value = mapping["androidPackageName"] { patch.androidPackageName = .some(try optionalString(value, key: "androidPackageName", step: step)) }
        if let value = mapping["androidInstallIfNotAvailable"] { patch.androidInstallIfNotAvailable = try bool(value, key: "androidInstallIfNotAvailable", step: step) }
        if let value = mapping["androidMinimumVersion"] { patch.androidMinimumVersion = .some(try optionalString(value, key: "androidMinimumVersion", step: step)) }
        if let value = mapping["dynamicLinkDomain"] { patch.dynamicLinkDomain = .some(try optionalString(value, key: "dynamicLinkDomain", step: step)) }
        if let value = mapping["linkDomain"] { patch.linkDomain = .some(try optionalString(value, key: "linkDomain", step: step)) }
        return patch
    }

    func projectPatch(_ node: Node, step: Int? = nil) throws(ScenarioFileError) -> ProjectPatch {
        let mapping = try self.mapping(node, key: "project", step: step)
        try checkKeys(mapping, allowed: ["authorizedDomains", "mobileLinkStyle", "emailEnumerationProtection", "actionHandlerURL", "androidLatestVersion", "hostingDomains", "dynamicLinkDomains", "rateLimitMaxEmails", "passwordResetLifetime", "verifyEmailLifetime", "emailSignInLifetime"], context: "project", step: step)
        var patch = ProjectPatch()
        if let value = mapping["authorizedDomains"] { patch.authorizedDomains = try strings(value, key: "authorizedDomains", step: step) }
        if let value = mapping["mobileLinkStyle"] {
            patch.mobileLinkStyle = try oneOf(value, key: "mobileLinkStyle", step: step, MobileLinkStyle.allCases.map { ($0.rawValue, $0) })
        }
        if let value = mapping["emailEnumerationProtection"] { patch.emailEnumerationProtection = try bool(value, key: "emailEnumerationProtection", step: step) }
        if let value = mapping["actionHandlerURL"] { patch.actionHandlerURL = .some(try optionalString(value, key: "actionHandlerURL", step: step)) }
        if let value = mapping["androidLatestVersion"] { patch.androidLatestVersion = try int(value, key: "androidLatestVersion", step: step) }
        if let value = mapping["hostingDomains"] { patch.hostingDomains = try strings(value, key: "hostingDomains", step: step) }
        if let value = mapping["dynamicLinkDomains"] { patch.dynamicLinkDomains = try strings(value, key: "dynamicLinkDomains", step: step) }
        if let value = mapping["rateLimitMaxEmails"] { patch.rateLimitMaxEmails = try int(value, key: "rateLimitMaxEmails", step: step) }
        if let value = mapping["passwordResetLifetime"] { patch.passwordResetLifetime = try duration(value, key: "passwordResetLifetime", step: step) }
        if let value = mapping["verifyEmailLifetime"] { patch.verifyEmailLifetime = try duration(value, key: "verifyEmailLifetime", step: step) }
        if let value = mapping["emailSignInLifetime"] { patch.emailSignInLifetime = try duration(value, key: "emailSignInLifetime", step: step) }
        try checkRules(patch, mapping)
        return patch
    }

    /// The project rules, checked on the bundled project so that a broken one points at its line;
    /// `run` checks again on the project it plays against.
    func checkRules(_ patch: ProjectPatch, _ mapping: Node.Mapping) throws(ScenarioFileError) {
        guard let base = ScenarioParser.bundledProject else { return }
        do {
            _ = try patch.validated(appliedTo: base, source: source)
        } catch {
            let key = error.key ?? ""
            let name = String(key.prefix { $0 != "[" })
            guard let node = mapping[name] else { return }
            let index = Int(key.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" })
            let item = index.flatMap { index in node.sequence.flatMap { $0.indices.contains(index) ? $0[index] : nil } }
            throw ScenarioFileError(file: source, line: (item ?? node).mark?.line, key: key, message: error.message)
        }
    }

    // MARK: Steps

    /// A step's action and the caption the presenter shows for it: `caption:` may stand beside
    /// the action's own key (`- tapLink: latest` / `  caption: Bob taps the link`).
    func captioned(_ node: Node, step: Int) throws(ScenarioFileError) -> (Node, String?) {
        guard let mapping = node.mapping, mapping.count == 2, let captionNode = mapping["caption"] else { return (node, nil) }
        let caption = try string(captionNode, key: "caption", step: step)
        guard !caption.trimmingWhitespace().isEmpty else { throw error(captionNode, step: step, key: "caption", "needs a sentence the audience reads while the step plays") }
        var rest = mapping
        rest["caption"] = nil
        return (Node.mapping(rest), UntrustedText.sanitize(caption))
    }

    func action(_ node: Node, step: Int) throws(ScenarioFileError) -> ScenarioAction {
        let name: String
        let argument: Node?
        if node.scalar != nil {
            name = try string(node, key: "step", step: step)
            argument = nil
        } else if let mapping = node.mapping {
            guard mapping.count == 1, let only = mapping.first, let key = only.key.string else {
                let keys = mapping.keys.compactMap(\.string).joined(separator: ", ")
                throw error(node, step: step, key: nil, "a step holds exactly one action; found \(mapping.count) keys (\(keys))")
            }
            name = key
            argument = only.value
        } else {
            throw error(node, step: step, key: nil, "expected an action such as `open: /articles/42` or `forgotPassword`, got \(shown(node))")
        }
        guard ScenarioParser.actionNames.contains(name) else {
            throw error(node, step: step, key: name, "unknown action; expected one of \(ScenarioParser.actionNames.joined(separator: ", "))")
        }
        func required() throws(ScenarioFileError) -> Node {
            guard let argument, argument.null == nil else {
                throw error(node, step: step, key: name, "needs a value, for example \(Self.example(for: name))")
            }
            return argument
        }
        func text() throws(ScenarioFileError) -> String { try string(try required(), key: name, step: step) }
        func userText() throws(ScenarioFileError) -> String { try self.userText(try required(), key: name, step: step) }
        func none(_ action: ScenarioAction) throws(ScenarioFileError) -> ScenarioAction {
            if let argument, argument.null == nil {
                throw error(argument, step: step, key: name, "takes no value; write it as `- \(name)`")
            }
            return action
        }
        switch name {
        case "open": return .event(.openRoute(try text()))
        case "signIn":
            let value = try required()
            let mapping = try self.mapping(value, key: name, step: step)
            try checkKeys(mapping, allowed: ["email", "password"], context: name, step: step)
            guard let email = mapping["email"], let password = mapping["password"] else {
                throw error(value, step: step, key: name, "needs `email` and `password`, for example \(Self.example(for: name))")
            }
            return .event(.signInSubmitted(email: try self.userText(email, key: "email", step: step), password: try self.userText(password, key: "password", step: step)))
        case "forgotPassword": return try none(.event(.forgotPasswordTapped))
        case "requestPasswordReset": return .event(.passwordResetRequested(email: try userText()))
        case "requestVerification": return try none(.event(.verificationRequested))
        case "requestSignInLink": return .event(.signInLinkRequested(email: try userText()))
        case "confirmSignInEmail": return .event(.signInEmailConfirmed(try userText()))
        case "openMailbox": return try none(.event(.mailboxOpened))
        case "openMessage": return .openMessage(try messageReference(argument, node: node, key: name, step: step))
        case "tapLink": return .tapLink(try messageReference(argument, node: node, key: name, step: step))
        case "pasteLink":
            if let argument, let literal = argument.string, literal.contains("://") {
                return .event(.linkPasted(literal))
            }
            return .pasteMessageLink(try messageReference(argument, node: node, key: name, step: step))
        case "newPassword": return .event(.newPasswordSubmitted(try text()))
        case "continue": return try none(.event(.continueTapped))
        case "install", "update": return try none(.event(.storeActionTapped))
        case "backToApp": return try none(.event(.appOpened))
        case "reloadUser": return try none(.event(.reloadUserTapped))
        case "addSecondFactor": return .event(.secondFactorRequested(phoneNumber: try text()))
        case "subscribe": return try none(.event(.subscribeTapped))
        case "signOut": return try none(.event(.signOutTapped))
        case "resetWorld": return try none(.event(.worldResetRequested))
        case "killApp": return try none(.changeDevice(.appKilled))
        case "retry": return try none(.event(.retryTapped))
        case "dismissError": return try none(.event(.errorDismissed))
        case "advance": return .event(.clockAdvanceRequested(seconds: try duration(try required(), key: name, step: step)))
        case "device": return .changeDevice(try devicePatch(try required(), step: step))
        case "settings": return .changeSettings(try settingsPatch(try required(), step: step))
        case "project": return .changeProject(try projectPatch(try required(), step: step))
        case "draft": return try draft(try required(), step: step)
        case "focus": return .focus(try deviceName(try required(), key: name, step: step))
        default:
            let value = try required()
            let expectations = try expectations(value, step: step)
            if let deviceNode = value.mapping?["device"] {
                guard !expectations.isEmpty else {
                    throw error(value, step: step, key: "expect", "`device` names the device the expectations are about; add at least one, for example `expect: {device: iphone, signedIn: false}`")
                }
                return .expectOn(try deviceName(deviceNode, key: "device", step: step), expectations)
            }
            return .expect(expectations)
        }
    }

    /// `draft: {field: signIn.email, value: TEXT}`: text typed into a phone form field.
    func draft(_ node: Node, step: Int) throws(ScenarioFileError) -> ScenarioAction {
        let mapping = try self.mapping(node, key: "draft", step: step)
        try checkKeys(mapping, allowed: ["field", "value"], context: "draft", step: step)
        guard let field = mapping["field"], let value = mapping["value"] else {
            throw error(node, step: step, key: "draft", "needs `field` and `value`, for example \(Self.example(for: "draft"))")
        }
        let draftField = try oneOf(field, key: "field", step: step, DraftField.allCases.map { ($0.rawValue, $0) })
        return .event(.draftEdited(field: draftField.rawValue, text: try self.userText(value, key: "value", step: step)))
    }

    func messageReference(_ argument: Node?, node: Node, key: String, step: Int) throws(ScenarioFileError) -> MessageReference {
        guard let argument, argument.null == nil else { return .latest }
        if argument.string == "latest" { return .latest }
        guard let position = argument.int, position >= 1 else {
            throw error(argument, step: step, key: key, "expected `latest` or a message number (1 is the oldest), got \(shown(argument))")
        }
        return .position(position)
    }

    static let expectationKeys = ["landsAt", "screen", "fails", "noError", "emailVerified", "mailbox", "signedIn", "subscribed", "flowStep", "narrates", "linkOpensIn", "store", "finding", "device"]

    func expectations(_ node: Node, step: Int) throws(ScenarioFileError) -> [Expectation] {
        let mapping = try self.mapping(node, key: "expect", step: step)
        try checkKeys(mapping, allowed: Self.expectationKeys, context: "expect", step: step)
        var expectations: [Expectation] = []
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            switch key {
            case "device":
                // Which device the others are about: read by `action`.
                continue
            case "landsAt":
                let path = try string(value, key: key, step: step)
                guard AppScreen(path: path) != nil else {
                    throw error(value, step: step, key: key, "expected an app route (/, /articles/ID, /subscribe, /account), got `\(path)`")
                }
                expectations.append(.landsAt(path))
            case "screen":
                let names = ["app", "mailbox", "webWidget", "store", "browser", "signIn", "forgotPassword", "verifyEmail", "newPassword", "confirmEmailForSignIn"]
                expectations.append(.screen(try oneOf(value, key: key, step: step, names.map { ($0, $0) })))
            case "fails":
                let code = try string(value, key: key, step: step)
                let serverCode = !code.isEmpty && code.allSatisfy { $0.isUppercase || $0 == "_" }
                guard serverCode || code.hasPrefix("auth/") else {
                    throw error(value, step: step, key: key, "expected a server error code such as EXPIRED_OOB_CODE or an SDK code such as auth/argument-error, got `\(code)`")
                }
                expectations.append(.fails(AuthErrorCode(code)))
            case "noError":
                guard try bool(value, key: key, step: step) else {
                    throw error(value, step: step, key: key, "only `noError: true` makes sense; use `fails: CODE` to expect an error")
                }
                expectations.append(.noError)
            case "emailVerified": expectations.append(.emailVerified(try bool(value, key: key, step: step)))
            case "mailbox": expectations.append(.mailbox(try int(value, key: key, step: step)))
            case "signedIn":
                if let flag = value.bool, !flag {
                    expectations.append(.signedIn(nil))
                } else {
                    expectations.append(.signedIn(try string(value, key: key, step: step)))
                }
            case "subscribed": expectations.append(.subscribed(try bool(value, key: key, step: step)))
            case "flowStep":
                let choices: [(String, FlowStep?)] = [("none", nil)] + FlowStep.allCases.map { ($0.rawValue, $0) }
                expectations.append(.flowStep(try oneOf(value, key: key, step: step, choices)))
            case "narrates": expectations.append(.narrates(try string(value, key: key, step: step)))
            case "finding": expectations.append(.finding(try string(value, key: key, step: step)))
            case "linkOpensIn":
                expectations.append(.linkOpensIn(try oneOf(value, key: key, step: step, ["app", "web widget", "browser", "Play Store", "App Store"].map { ($0, $0) })))
            default:
                expectations.append(.store(try oneOf(value, key: key, step: step, [("install", StorePage.Purpose.install), ("upgrade", .upgrade)])))
            }
        }
        return expectations
    }

    static func example(for action: String) -> String {
        switch action {
        case "open": "`open: /articles/42`"
        case "signIn": "`signIn: {email: bob@example.com, password: hunter22}`"
        case "requestPasswordReset", "requestSignInLink", "confirmSignInEmail": "`\(action): bob@example.com`"
        case "newPassword": "`newPassword: correct-horse`"
        case "addSecondFactor": "`addSecondFactor: \"+15555550100\"`"
        case "advance": "`advance: 2h`"
        case "device": "`device: {appInstalled: false}`"
        case "settings": "`settings: {handleCodeInApp: true}`"
        case "project": "`project: {mobileLinkStyle: HOSTING_DOMAIN}`"
        case "draft": "`draft: {field: signIn.email, value: $verified.email}`"
        case "focus": "`focus: laptop`"
        case "expect": "`expect: {landsAt: /articles/42}`"
        default: "`\(action): latest`"
        }
    }
}
