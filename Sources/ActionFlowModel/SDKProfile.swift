/// A platform SDK and the range of its versions that read incoming email action links alike,
/// named `PLATFORM@VERSION` (`ios@12.18.0`, `js@10.14.1`). Each rule cites the SDK source it
/// follows (docs/sdk-profiles.md lists them).
public struct SDKProfile: Sendable, Hashable {
    public enum Platform: String, Sendable, CaseIterable {
        case ios, js
        /// Android's native firebase-auth: closed source, read through its wrappers' tests.
        case android
        /// Flutter's firebase_auth plugin (its Dart API, on Android and iOS).
        case flutterfire
        /// react-native-firebase's @react-native-firebase/auth, on Android.
        case rnfb
    }

    public let platform: Platform
    /// First version of the range.
    public let first: SDKVersion
    /// First version after the range; nil when the range is open (the newest versions read).
    public let end: SDKVersion?
    /// The range as users write it: `11.0-11.11`, `12.17+`.
    public let range: String
    /// The release whose source the rules were read in (`CocoaPods-11.15.0`, `firebase@12.18.0`).
    public let readAt: String
    /// Newest release read for an open range; later versions are assumed to read alike.
    let newestRead: SDKVersion
    let reader: LinkReader

    /// The version asked for (`ios@11.15.0`), or the range when listed with `all`.
    public private(set) var name: String

    init(_ platform: Platform, _ first: SDKVersion, _ end: SDKVersion?, range: String, readAt: String, newestRead: SDKVersion, reader: LinkReader) {
        self.platform = platform
        self.first = first
        self.end = end
        self.range = range
        self.readAt = readAt
        self.newestRead = newestRead
        self.reader = reader
        self.name = "\(platform.rawValue)@\(range)"
    }

    /// Every profile, iOS then JS, oldest first. Ranges with identical link reading stay apart
    /// where the SDKs differ in what they send (12.0 dropped `dynamicLinkDomain`).
    public static let all: [SDKProfile] = [
        SDKProfile(.ios, "10.0.0", "11.0.0", range: "10.x", readAt: "CocoaPods-10.29.0", newestRead: "10.29.0", reader: .iosObjectiveC),
        SDKProfile(.ios, "11.0.0", "11.12.0", range: "11.0-11.11", readAt: "CocoaPods-11.11.0", newestRead: "11.11.0",
                   reader: .iosSwift(modesAreRequestTypes: true, languageKey: "languageCode", skipsPairsWithoutValue: false)),
        SDKProfile(.ios, "11.12.0", "12.0.0", range: "11.12-11.15", readAt: "CocoaPods-11.15.0", newestRead: "11.15.0",
                   reader: .iosSwift(modesAreRequestTypes: false, languageKey: "lang", skipsPairsWithoutValue: false)),
        SDKProfile(.ios, "12.0.0", "12.17.0", range: "12.0-12.16", readAt: "CocoaPods-12.16.0", newestRead: "12.16.0",
                   reader: .iosSwift(modesAreRequestTypes: false, languageKey: "lang", skipsPairsWithoutValue: false)),
        SDKProfile(.ios, "12.17.0", nil, range: "12.17+", readAt: "CocoaPods-12.17.0", newestRead: "12.19.0",
                   reader: .iosSwift(modesAreRequestTypes: false, languageKey: "lang", skipsPairsWithoutValue: true)),
        SDKProfile(.js, "10.0.0", "11.0.0", range: "10.x", readAt: "firebase@10.14.1", newestRead: "10.14.1", reader: .js(languageKey: "languageCode")),
        SDKProfile(.js, "11.0.0", "11.6.1", range: "11.0-11.6.0", readAt: "firebase@11.6.0", newestRead: "11.6.0", reader: .js(languageKey: "languageCode")),
        SDKProfile(.js, "11.6.1", "12.0.0", range: "11.6.1-11.x", readAt: "firebase@11.6.1", newestRead: "11.10.0", reader: .js(languageKey: "lang")),
        SDKProfile(.js, "12.0.0", nil, range: "12.x", readAt: "firebase@12.18.0", newestRead: "12.18.0", reader: .js(languageKey: "lang")),
        // firebase-auth 23.2 is where linkDomain arrived; the evidence (react-native-firebase's
        // end-to-end tests) runs against BoM 33.13.0-34.18.0.
        SDKProfile(.android, "23.2.0", nil, range: "23.2+", readAt: "react-native-firebase v26.3.2 e2e", newestRead: "24.0.0", reader: .androidNative),
        SDKProfile(.flutterfire, "0.18.1", nil, range: "0.18.1+", readAt: "firebase_auth-v6.5.7", newestRead: "6.5.7", reader: .substringCheck(parser: .none)),
        SDKProfile(.rnfb, "6.0.0", "22.0.0", range: "6-21.x", readAt: "v21.14.0", newestRead: "21.14.0", reader: .substringCheck(parser: .unsupported)),
        SDKProfile(.rnfb, "22.0.0", "25.0.0", range: "22-24.x", readAt: "v22.1.0", newestRead: "24.0.0", reader: .rnfbNative(jsParser: false)),
        SDKProfile(.rnfb, "25.0.0", nil, range: "25+", readAt: "v26.3.2", newestRead: "26.3.2", reader: .rnfbNative(jsParser: true)),
    ]

    /// `ios@12.18.0` (or `ios@12.18`, `js@10`) resolved to its range.
    public static func named(_ text: String) throws(SDKProfileError) -> SDKProfile {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let platform = Platform(rawValue: parts[0].lowercased()) else { throw .unknownPlatform(text) }
        guard let version = SDKVersion(parts[1]) else { throw .badVersion(text) }
        guard var profile = all.first(where: { $0.platform == platform && $0.contains(version) }) else { throw .outOfRange(text) }
        profile.name = "\(platform.rawValue)@\(version)"
        profile.requested = version
        return profile
    }

    /// The version asked for, when the profile was named by one.
    public private(set) var requested: SDKVersion?

    func contains(_ version: SDKVersion) -> Bool {
        version >= first && end.map { version < $0 } ?? true
    }

    /// Every profile in the form `ios@10.x`, for error messages and help.
    public static var knownNames: String {
        all.map(\.name).joined(separator: ", ")
    }
}

/// `MAJOR[.MINOR[.PATCH]]`, missing parts 0.
public struct SDKVersion: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let parts: [Int]

    public init?(_ text: Substring) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(pieces.count) else { return nil }
        var parts: [Int] = []
        for piece in pieces {
            guard !piece.isEmpty, piece.utf8.count <= 6, piece.utf8.allSatisfy(\.isASCIIDigit), let number = Int(piece) else { return nil }
            parts.append(number)
        }
        self.parts = parts + Array(repeating: 0, count: 3 - parts.count)
    }

    public init(stringLiteral value: String) {
        self = SDKVersion(Substring(value))!
    }

    public static func < (lhs: SDKVersion, rhs: SDKVersion) -> Bool {
        lhs.parts.lexicographicallyPrecedes(rhs.parts)
    }

    public var description: String { parts.map(String.init).joined(separator: ".") }
}

public enum SDKProfileError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownPlatform(String)
    case badVersion(String)
    case outOfRange(String)

    public var description: String {
        let known = "known platforms: \(SDKProfile.Platform.allCases.map(\.rawValue).joined(separator: ", ")); profiles: \(SDKProfile.knownNames)"
        let safe = LinkParseError.safe
        return switch self {
        case .unknownPlatform(let text): "unknown SDK profile \"\(safe(text))\": write PLATFORM@VERSION (ios@12.18.0, js@10.14.1) or all; \(known)"
        case .badVersion(let text): "\"\(safe(text))\" has no version of the form MAJOR.MINOR.PATCH after @; \(known)"
        case .outOfRange(let text): "no profile covers \"\(safe(text))\": the versions read start at \(SDKProfile.Platform.allCases.compactMap { platform in SDKProfile.all.first { $0.platform == platform }.map { "\(platform.rawValue)@\($0.first)" } }.joined(separator: ", ")); \(known)"
        }
    }
}
