import ActionFlowModel
import Foundation

/// The devices a session can hold, by the name used on the command line (`--devices`) and in
/// scenario files (`devices:`, `focus:`).
public enum DeviceName: String, Sendable, Hashable, Codable, CaseIterable {
    case iphone, android, laptop, desktop

    /// The device as it starts: the phones with the app installed, the computers with a browser only.
    public var preset: Device {
        switch self {
        case .iphone: .iPhone
        case .android: .pixel
        case .laptop: .laptop
        case .desktop: .desktop
        }
    }

    /// How narration names it: "On the laptop: …".
    public var title: String {
        switch self {
        case .iphone: "iPhone"
        case .android: "Android phone"
        case .laptop: "laptop"
        case .desktop: "desktop"
        }
    }

    /// The name a lone device of a session file without names gets.
    public static func inferred(from device: Device) -> DeviceName {
        switch device.platform {
        case .iOS: .iphone
        case .android: .android
        case .desktop: .desktop
        }
    }

    /// The most devices a session holds.
    public static let maximumCount = 2

    /// Every name, for error messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// A device name, in any case.
    public init?(parsing text: String) {
        guard let name = DeviceName(rawValue: text.trimmingWhitespace().lowercased()) else { return nil }
        self = name
    }

    /// `iphone,laptop`: one or two different device names.
    public static func parseList(_ text: String) throws(DeviceListError) -> [DeviceName] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        if parts.allSatisfy(\.isEmpty) { throw DeviceListError("no device named; expected one or two of \(names), separated by a comma (for example iphone,laptop)") }
        var list: [DeviceName] = []
        for part in parts {
            guard !part.isEmpty else { throw DeviceListError("an empty device name in `\(UntrustedText.sanitize(text))`; expected one or two of \(names), separated by a comma") }
            guard let name = DeviceName(parsing: part) else {
                throw DeviceListError("unknown device `\(UntrustedText.sanitize(part))`; expected one of \(names)")
            }
            list.append(name)
        }
        try check(list)
        return list
    }

    /// One or two devices, no name twice.
    public static func check(_ list: [DeviceName]) throws(DeviceListError) {
        guard !list.isEmpty else { throw DeviceListError("no device named; expected one or two of \(names)") }
        guard list.count <= maximumCount else {
            throw DeviceListError("\(list.count) devices named (\(list.map(\.rawValue).joined(separator: ", "))); a session holds at most \(maximumCount)")
        }
        if let twice = list.first(where: { name in list.filter { $0 == name }.count > 1 }) {
            throw DeviceListError("`\(twice.rawValue)` is named twice; each device of a session has its own name (\(names))")
        }
    }
}

/// Why a list of device names cannot be used.
public struct DeviceListError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension Device {
    /// A laptop: a browser, no app. Links open in the browser, where the hosted web widget
    /// handles codes and the continue URL opens the web app.
    public static let laptop = Device(platform: .desktop, osName: "Web browser", appInstalled: false, installedVersion: nil, linksVerified: false, mailClient: .native, mailScanner: false)
}

/// One device of a session and the app on it: its own screen, cached user, pending
/// destination, flow, mail app and browser, and the form values typed on it. The world (the
/// project, the mailbox, the clock) is the session's, shared by every device.
public struct SessionDevice: Sendable, Equatable, Codable {
    public var name: DeviceName
    public var app: AppState
    /// Form values typed on this device that the app receives only with the form's button.
    public var drafts: [String: String]

    public init(name: DeviceName, app: AppState, drafts: [String: String] = [:]) {
        self.name = name
        self.app = app
        self.drafts = drafts
    }

    /// The one device of a session, named as its platform names it.
    public init(app: AppState) {
        self.init(name: .inferred(from: app.device), app: app)
    }

    /// The device's preset with the app's settings: how a session's devices start.
    public init(name: DeviceName, device: Device? = nil, settings: ActionCodeSettings, continueURLBase: String? = nil, locale: String? = nil) {
        var app = AppState(device: device ?? name.preset, settings: settings, locale: locale)
        if let continueURLBase { app.continueURLBase = continueURLBase }
        self.init(name: name, app: app)
    }
}

extension Session {
    /// Whether the session holds more than one device: narration then names the device.
    public var hasSeveralDevices: Bool { devices.count > 1 }

    /// The index of the device with this name.
    public func deviceIndex(_ name: DeviceName) -> Int? {
        devices.firstIndex { $0.name == name }
    }

    /// The device in focus, where taps happen.
    public var focusedDevice: SessionDevice { devices[focus] }

    /// The session as seen with another device in focus (for drawing or checking it).
    public func focused(on index: Int) -> Session {
        guard devices.indices.contains(index) else { return self }
        var copy = self
        copy.focus = index
        return copy
    }

    /// The settings the backend kept for a link opened on the device in focus: those this
    /// device sent last, else those another device sent (the link was requested there).
    var requestedSettings: ActionCodeSettings? {
        app.sentSettings ?? devices.lazy.compactMap(\.app.sentSettings).first
    }
}
