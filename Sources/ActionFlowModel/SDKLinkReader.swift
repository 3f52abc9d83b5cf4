import Foundation

/// What an SDK's `isSignInWithEmailLink` answers for a link.
public enum SDKSignInCheck: Sendable, Hashable {
    case yes, no
    /// JS `URIError` from `decodeURIComponent`.
    case throwsError
    /// An iOS trap (index out of range).
    case crash
}

/// What an SDK's `ActionCodeURL`/`parseLink` gives for a link.
public enum SDKParsedLink: Sendable, Hashable {
    case none
    case throwsError
    case crash
    case parsed(SDKActionCodeURL)
}

/// The fields of the SDK's `ActionCodeURL`, as that SDK fills them.
public struct SDKActionCodeURL: Sendable, Hashable {
    /// The REST request type (`EMAIL_SIGNIN`...) or `unknown`.
    public var operation: String
    public var code: String?
    public var apiKey: String?
    public var continueUrl: String?
    public var languageCode: String?
    public var tenantId: String?
}

/// One profile's reading of one link, with the rules that decided it (source file and line, or
/// "assumed:" where no public source decides).
public struct SDKLinkReading: Sendable, Hashable {
    public var profile: String
    public var isSignInWithEmailLink: SDKSignInCheck
    public var parseLink: SDKParsedLink
    /// What `checkActionCode` answers for the link's code (the server sends the code's request
    /// type): the request type as the SDK reports it, `unknown`, or nil when the link has no mode.
    public var checkActionCode: String?
    public var notes: [String]
}

/// How a profile reads links; one reader per code path the SDKs' releases had.
enum LinkReader: Sendable, Hashable {
    /// firebase-ios-sdk 10.x, Objective-C `FIRAuth.m` (CocoaPods-10.29.0).
    case iosObjectiveC
    /// firebase-ios-sdk 11+, Swift `ActionCodeURL.swift`.
    case iosSwift(modesAreRequestTypes: Bool, languageKey: String, skipsPairsWithoutValue: Bool)
    /// firebase-js-sdk `packages/auth/src/core/action_code_url.ts`.
    case js(languageKey: String)
    /// Android's firebase-auth `isSignInWithEmailLink`, as react-native-firebase's end-to-end
    /// tests show it; it has no public link parser.
    case androidNative
    /// A text search for `mode=signIn` and `oobCode=` instead of the SDK's check: flutterfire's
    /// Dart code and react-native-firebase up to 21.x.
    case substringCheck(parser: WrapperParser)
    /// react-native-firebase 22+ on Android: the native check; from 25.0 a JavaScript
    /// `parseActionCodeURL` of its own.
    case rnfbNative(jsParser: Bool)
}

/// What a wrapper offers for `parseActionCodeURL`.
enum WrapperParser: Sendable, Hashable {
    /// No such API.
    case none
    /// It throws "unsupported by the native Firebase SDKs".
    case unsupported
}

extension SDKProfile {
    /// Reads `link` (already cleaned of pasted whitespace and quotes) as this SDK does.
    public func read(_ link: String) -> SDKLinkReading {
        var notes: [String] = []
        if let requested, requested > newestRead, end == nil {
            notes.append("assumed: \(platform.rawValue)@\(requested) reads links as \(newestRead), the newest release read")
        }
        let check: SDKSignInCheck
        let parsed: SDKParsedLink
        switch reader {
        case .iosObjectiveC, .iosSwift:
            (check, parsed) = IOSLinkReading(link: link, reader: reader, tag: readAt).read(notes: &notes)
        case .js(let languageKey):
            (check, parsed) = JSLinkReading(languageKey: languageKey, tag: readAt).read(link, notes: &notes)
        case .androidNative:
            check = WrapperLinkReading.androidCheck(link, notes: &notes)
            parsed = .none
            notes.append("Android's firebase-auth has no public link parser (ActionCodeURL is iOS and JS only)")
        case .substringCheck(let parser):
            check = WrapperLinkReading.substringCheck(link, platform: platform, tag: readAt, notes: &notes)
            switch parser {
            case .none:
                parsed = .none
                notes.append("flutterfire has no parseActionCodeURL")
            case .unsupported:
                // lib/modular/index.js:396-398 (v24.0.0).
                parsed = .throwsError
                notes.append("parseActionCodeURL throws \"unsupported by the native Firebase SDKs\" (react-native-firebase \(readAt) lib/modular/index.js)")
            }
        case .rnfbNative(let jsParser):
            // A26:432-437 (v26.3.2), A<=25:412-417 (v22.1.0): the native call.
            check = WrapperLinkReading.androidCheck(link, notes: &notes)
            if jsParser {
                // lib/ActionCodeURL.ts:20-167 (v26.3.2): the JS SDK's reading, each pair split at its first `=`.
                (_, parsed) = JSLinkReading(languageKey: "lang", tag: "react-native-firebase \(readAt)", splitsAtFirstEquals: true,
                                            requirementSite: "lib/ActionCodeURL.ts:54-87").read(link, notes: &notes)
            } else {
                parsed = .throwsError
                notes.append("parseActionCodeURL throws \"unsupported by the native Firebase SDKs\" (react-native-firebase lib/modular/index.js:396-398@v24.0.0)")
            }
        }
        let mode = (try? LinkInspector.inspect(link))?.operation.requestType
        let checked = mode.map { checkActionCode(answering: $0, notes: &notes) }
        return SDKLinkReading(profile: name, isSignInWithEmailLink: check, parseLink: parsed, checkActionCode: checked, notes: notes)
    }
}

extension SDKProfile {
    /// The operation `checkActionCode` reports when the server answers `requestType` for the code.
    func checkActionCode(answering requestType: OobRequestType, notes: inout [String]) -> String {
        switch platform {
        case .ios where first >= "11.12.0":
            // Auth.swift checkActionCode maps the server's request type with
            // ActionCodeInfo.actionCodeOperation(forRequestType:) (CocoaPods-12.17.0:1008), which
            // from 11.12 knows only modes (ActionCodeInfo.swift:45-50@CocoaPods-11.12.0).
            notes.append("checkActionCode answers unknown: the server sends \(requestType.rawValue), which this release maps as a mode (ActionCodeInfo.swift:45-50@CocoaPods-11.12.0; firebase-ios-sdk #15010)")
            return "unknown"
        case .ios:
            // FIRAuth.m:1304 with actionCodeOperationForRequestType: (:234, CocoaPods-10.29.0);
            // ActionCodeInfo.swift:43-51@CocoaPods-11.11.0.
            return requestType.rawValue
        case .js:
            // email_and_password.ts checkActionCode: response.requestType (firebase@12.18.0:199-235).
            return requestType.rawValue
        case .android:
            notes.append("assumed: Android's checkActionCode reports the server's request type (firebase-auth is closed source)")
            return requestType.rawValue
        case .flutterfire:
            // PigeonParser.java:317-364@firebase_auth-v6.5.7 maps every request type.
            return requestType.rawValue
        case .rnfb:
            // NativeRNFBTurboAuth.java:1741-1767@v26.3.2 (ReactNativeFirebaseAuthModule.java:1555-1575@v21.0.0):
            // VERIFY_AND_CHANGE_EMAIL and REVERT_SECOND_FACTOR_ADDITION fall to UNKNOWN.
            switch requestType {
            case .verifyAndChangeEmail, .revertSecondFactorAddition:
                notes.append("checkActionCode answers UNKNOWN for \(requestType.rawValue): react-native-firebase maps only five operations (NativeRNFBTurboAuth.java:1741-1767@v26.3.2)")
                return "unknown"
            default:
                return requestType.rawValue
            }
        }
    }
}

/// firebase-ios-sdk: both `isSignIn(withEmailLink:)` and `ActionCodeURL(link:)` take
/// `URLComponents(string:).query` (already percent-decoded), split it on `&` and decode each
/// piece again, so a wrapper's `link=` payload is read as if its parameters were the link's own.
struct IOSLinkReading {
    let link: String
    let reader: LinkReader
    let tag: String

    func read(notes: inout [String]) -> (SDKSignInCheck, SDKParsedLink) {
        if Self.hasMalformedEscape(link) {
            notes.append("assumed: Apple's URLComponents(string:) refuses a malformed percent escape, so iOS finds no query")
        }
        // Auth.swift getQueryItems/isSignIn(withEmailLink:) (CocoaPods-12.17.0:2223, 1287; same
        // in 11.0-12.16) and FIRAuth.m isSignInWithEmailLink: (CocoaPods-10.29.0:1632): an
        // oobCode and mode=signIn; apiKey is not looked at.
        let items = Self.queryItems(link, split: Self.splitAtFirstEquals)
        let isSignIn = !link.isEmpty && items["oobCode"] != nil && items["mode"] == "signIn"
        if isSignIn, items["apiKey"] == nil {
            notes.append("iOS accepts a sign-in link without apiKey (\(tag) Auth isSignIn(withEmailLink:) checks oobCode and mode only)")
        }
        return (isSignIn ? .yes : .no, actionCodeURL(notes: &notes))
    }

    private func actionCodeURL(notes: inout [String]) -> SDKParsedLink {
        let items: [String: String]
        let languageKey: String
        let modesAreRequestTypes: Bool
        switch reader {
        case .iosSwift(let requestTypes, let key, let skips):
            // ActionCodeURL.swift parseURL: `component.split(separator: "=")` then
            // `splitArray[0]`, `splitArray[1]` (CocoaPods-11.15.0:72-74): the value is the
            // piece between the first and the second `=`, and a piece without a value traps.
            // 12.17.0 skips it instead (CocoaPods-12.17.0:73).
            var trap: String?
            var cut: [Substring] = []
            let split: (Substring) -> (Substring, Substring)? = { component in
                let pieces = component.split(separator: "=")
                guard pieces.count >= 2 else {
                    if !skips, trap == nil { trap = String(component) }
                    return nil
                }
                if pieces.count > 2, !cut.contains(pieces[0]) { cut.append(pieces[0]) }
                return (pieces[0], pieces[1])
            }
            items = Self.queryItems(link, split: split)
            for name in cut {
                notes.append("ActionCodeURL keeps only the text between the first and the second = of \(UntrustedText.sanitize(String(name))): the rest of its value is lost (\(tag) ActionCodeURL.swift parseURL, splitArray[1])")
            }
            if let trap {
                notes.append("ActionCodeURL(link:) traps on the query piece \"\(UntrustedText.sanitize(trap))\", which has no value: index out of range (\(tag) ActionCodeURL.swift parseURL, splitArray[1]; fixed in 12.17.0)")
                return .crash
            }
            languageKey = key
            modesAreRequestTypes = requestTypes
        case .iosObjectiveC, .js, .androidNative, .substringCheck, .rnfbNative:
            // FIRAuth.m FIRActionCodeURL parseURL: splits at the first `=` (CocoaPods-10.29.0:276-281).
            items = Self.queryItems(link, split: Self.splitAtFirstEquals)
            languageKey = "languageCode" // CocoaPods-10.29.0 FIRAuth.m:302
            modesAreRequestTypes = true
        }
        guard !items.isEmpty else { return .none }
        // ActionCodeInfo.actionCodeOperation(forRequestType:) is given the link's mode: up to
        // 11.11 it knows only request types (PASSWORD_RESET...), so real modes read as unknown
        // (CocoaPods-11.11.0 ActionCodeInfo.swift:43-51, CocoaPods-10.29.0 FIRAuth.m:234-253);
        // from 11.12 it maps modes (CocoaPods-11.12.0 ActionCodeInfo.swift:45-50).
        let mode = items["mode"]
        let operation: String
        if modesAreRequestTypes {
            operation = mode.flatMap(OobRequestType.init(rawValue:))?.rawValue ?? "unknown"
            if let mode, ActionCodeOperation(mode: mode) != .unknown {
                notes.append("ActionCodeURL.operation is unknown for mode=\(mode): this release maps only request types such as PASSWORD_RESET (\(tag) ActionCodeInfo actionCodeOperation(forRequestType:))")
            }
        } else {
            operation = mode.flatMap { ActionCodeOperation(mode: $0).requestType?.rawValue } ?? "unknown"
        }
        // `URL(string:)` of the value (CocoaPods-11.15.0 ActionCodeURL.swift:57-58).
        let continueUrl = items["continueUrl"].flatMap { URL(string: $0)?.absoluteString }
        // iOS ActionCodeURL has no tenant ID (10.x reads tenantID and drops it: FIRAuth.m:304).
        return .parsed(SDKActionCodeURL(operation: operation, code: items["oobCode"], apiKey: items["apiKey"],
                                        continueUrl: continueUrl, languageCode: items[languageKey], tenantId: nil))
    }

    /// `AuthWebUtils.parseURL` (CocoaPods-12.17.0 AuthWebUtils.swift:190-207) and
    /// `FIRAuthWebUtils parseURL:` (CocoaPods-10.29.0:231-252): key and value at the first `=`.
    static func splitAtFirstEquals(_ component: Substring) -> (Substring, Substring)? {
        guard let equals = component.firstIndex(of: "=") else { return nil }
        return (component[..<equals], component[component.index(after: equals)...])
    }

    /// The SDKs' `parseURL` of the link, then of the link's query when that gave nothing.
    static func queryItems(_ link: String, split: (Substring) -> (Substring, Substring)?) -> [String: String] {
        let items = parseURL(link, split: split)
        if items.isEmpty, let query = decodedQuery(link) {
            return parseURL(query, split: split)
        }
        return items
    }

    private static func parseURL(_ text: String, split: (Substring) -> (Substring, Substring)?) -> [String: String] {
        guard let query = decodedQuery(text) else { return [:] }
        var items: [String: String] = [:]
        for component in query.split(separator: "&", omittingEmptySubsequences: false) {
            // `removingPercentEncoding` gives nil for a broken escape or bytes that are not
            // UTF-8, and the pair is skipped.
            guard let (name, value) = split(component),
                  let key = PercentEncoding.decode(name), let decoded = PercentEncoding.decode(value) else { continue }
            items[key] = decoded
        }
        return items
    }

    /// `URLComponents(string:)?.query`: the query percent-decoded once.
    static func decodedQuery(_ text: String) -> String? {
        guard !hasMalformedEscape(text), let encoded = URLComponents(string: text)?.percentEncodedQuery else { return nil }
        return PercentEncoding.decode(encoded)
    }

    static func hasMalformedEscape(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == .percent {
                guard index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit else { return true }
                index += 3
            } else {
                index += 1
            }
        }
        return false
    }
}

/// firebase-js-sdk: `ActionCodeURL.parseLink` unwraps `link`/`deep_link_id` (`parseDeepLink`),
/// then reads the query with `querystringDecode` (packages/util/src/query.ts), whose
/// `decodeURIComponent` throws `URIError` on a malformed escape.
struct JSLinkReading {
    let languageKey: String
    let tag: String
    /// react-native-firebase's port keeps a value whole; the JS SDK keeps the piece before a second `=`.
    var splitsAtFirstEquals = false
    /// Where the parser requires apiKey, code and a known mode.
    var requirementSite = "action_code_url.ts:128"

    struct URIError: Error {}

    func read(_ link: String, notes: inout [String]) -> (SDKSignInCheck, SDKParsedLink) {
        let actionLink: String
        do {
            actionLink = try Self.parseDeepLink(link)
        } catch {
            // action_code_url.ts parseLink: parseDeepLink runs before the try (firebase@12.18.0:147-148),
            // so the URIError reaches isSignInWithEmailLink's caller (email_link.ts:128-130).
            notes.append("decodeURIComponent throws URIError on a malformed escape, outside parseLink's try (\(tag) action_code_url.ts parseLink, util/src/query.ts:52)")
            return (.throwsError, .throwsError)
        }
        // action_code_url.ts constructor (firebase@12.18.0:123-134): apiKey, oobCode and a known
        // mode are required; anything thrown inside gives null.
        guard let params = try? Self.querystringDecode(Self.extractQuerystring(actionLink), maxSplits: splitsAtFirstEquals ? 1 : 2),
              let apiKey = params["apiKey"].flatMap(Self.truthy), let code = params["oobCode"].flatMap(Self.truthy),
              let mode = params["mode"], let operation = ActionCodeOperation(mode: mode).requestType
        else {
            if let params = try? Self.querystringDecode(Self.extractQuerystring(actionLink)), Self.truthy(params["apiKey"] ?? "") == nil,
               params["oobCode"] != nil {
                notes.append("JS refuses a link without apiKey: _assert(apiKey && code && operation) (\(tag) \(requirementSite))")
            }
            return (.no, .none)
        }
        let url = SDKActionCodeURL(operation: operation.rawValue, code: code, apiKey: apiKey, continueUrl: params["continueUrl"],
                                   languageCode: params[languageKey], tenantId: params["tenantId"])
        // email_link.ts isSignInWithEmailLink (firebase@12.18.0:128-130, firebase@10.14.1:123-125).
        return (operation == .emailSignIn ? .yes : .no, .parsed(url))
    }

    /// JS truthiness of a string: the empty string is false.
    static func truthy(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// action_code_url.ts parseDeepLink (firebase@12.18.0:66-81): the first non-empty of the
    /// `link` payload's `deep_link_id` payload... in this order.
    static func parseDeepLink(_ url: String) throws(URIError) -> String {
        let outer = try querystringDecode(extractQuerystring(url))
        let link = outer["link"].flatMap(truthy)
        let doubleDeepLink = try link.flatMap { link throws(URIError) in try querystringDecode(extractQuerystring(link))["deep_link_id"] }
        let iOSDeepLink = outer["deep_link_id"].flatMap(truthy)
        let iOSDoubleDeepLink = try iOSDeepLink.flatMap { link throws(URIError) in try querystringDecode(extractQuerystring(link))["link"] }
        return [iOSDoubleDeepLink, iOSDeepLink, doubleDeepLink, link].lazy.compactMap { $0.flatMap(truthy) }.first ?? url
    }

    /// util/src/query.ts extractQuerystring (firebase@12.18.0:61-71): from the first `?` anywhere
    /// (a hash-router link's `#/path?...` included) to the next `#`; the whole text up to its
    /// first `#` when there is no `?` (`substring(-1)` starts at 0), nothing when `?` comes first.
    static func extractQuerystring(_ url: String) -> Substring {
        guard let question = url.firstIndex(of: "?") else {
            return url[..<(url.firstIndex(of: "#") ?? url.endIndex)]
        }
        if question == url.startIndex { return "" }
        let rest = url[question...]
        return rest[..<(rest.firstIndex(of: "#") ?? rest.endIndex)]
    }

    /// util/src/query.ts querystringDecode (firebase@12.18.0:45-56): split on `&`, each token on
    /// every `=` keeping the first two pieces, `decodeURIComponent` both (no `+` to space); a
    /// token without `=` has the value "undefined"; the last repeat wins.
    static func querystringDecode(_ query: Substring, maxSplits: Int = 2) throws(URIError) -> [String: String] {
        var object: [String: String] = [:]
        let body = query.first == "?" ? query.dropFirst() : query
        for token in body.split(separator: "&", omittingEmptySubsequences: false) where !token.isEmpty {
            let pieces = token.split(separator: "=", maxSplits: maxSplits, omittingEmptySubsequences: false)
            guard let key = PercentEncoding.decode(pieces[0]) else { throw URIError() }
            let value = pieces.count > 1 ? pieces[1] : "undefined"
            guard let decoded = PercentEncoding.decode(value) else { throw URIError() }
            object[key] = decoded
        }
        return object
    }
}

/// The wrappers' and Android's checks, from the evidence docs/sdk-profiles.md lists.
enum WrapperLinkReading {
    /// Android's `isSignInWithEmailLink`: apiKey, oobCode and mode=signIn, a wrapper's payload
    /// read (react-native-firebase packages/auth/e2e/emailLink.e2e.js:73-89@v26.3.2). How it
    /// unwraps and what it does with a malformed escape are not shown: assumed as the JS SDK,
    /// without the throw.
    static func androidCheck(_ link: String, notes: inout [String]) -> SDKSignInCheck {
        var ignored: [String] = []
        let (check, _) = JSLinkReading(languageKey: "lang", tag: "").read(link, notes: &ignored)
        if check == .throwsError {
            notes.append("assumed: Android answers false for a malformed escape (no public source shows it)")
            return .no
        }
        if check == .no, let items = try? JSLinkReading.querystringDecode(JSLinkReading.extractQuerystring((try? JSLinkReading.parseDeepLink(link)) ?? link)),
           items["mode"] == "signIn", items["oobCode"] != nil, items["apiKey"] == nil {
            notes.append("Android refuses a sign-in link without apiKey (react-native-firebase e2e emailLink.e2e.js:73-89@v26.3.2), and signInWithEmailLink throws IllegalArgumentException \"Given link is not a valid email link\" (react-native-firebase #8360)")
        }
        return check
    }

    /// flutterfire's Dart `isSignInWithEmailLink` (platform_interface_firebase_auth.dart:283-287
    /// @firebase_auth-v6.5.7) and react-native-firebase's up to 21.x (lib/index.js:363-369
    /// @v21.14.0): the text holds `mode=signIn` (or `mode%3DsignIn`) and `oobCode=` (or `oobCode%3D`).
    static func substringCheck(_ link: String, platform: SDKProfile.Platform, tag: String, notes: inout [String]) -> SDKSignInCheck {
        let isSignIn = (link.contains("mode=signIn") || link.contains("mode%3DsignIn")) && (link.contains("oobCode=") || link.contains("oobCode%3D"))
        if isSignIn, !link.contains("apiKey") {
            notes.append("\(platform.rawValue) \(tag) checks the text only, not apiKey: on Android the native signInWithEmailLink then refuses the link it accepted")
        }
        return isSignIn ? .yes : .no
    }
}

extension UInt8 {
    var isHexDigit: Bool { isASCIIDigit || ((self | 0x20) >= 0x61 && (self | 0x20) <= 0x66) }
}

extension ActionCodeOperation {
    /// The REST `requestType` of this operation; nil for `.unknown`.
    public var requestType: OobRequestType? {
        switch self {
        case .passwordReset: .passwordReset
        case .verifyEmail: .verifyEmail
        case .recoverEmail: .recoverEmail
        case .emailLink: .emailSignIn
        case .verifyAndChangeEmail: .verifyAndChangeEmail
        case .revertSecondFactorAddition: .revertSecondFactorAddition
        case .unknown: nil
        }
    }
}

extension SDKLinkReading: Encodable {
    enum CodingKeys: String, CodingKey { case name, isSignInWithEmailLink, parseLink, checkActionCode, notes }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(profile, forKey: .name)
        switch isSignInWithEmailLink {
        case .yes: try container.encode(true, forKey: .isSignInWithEmailLink)
        case .no: try container.encode(false, forKey: .isSignInWithEmailLink)
        case .throwsError, .crash: try container.encode(isSignInWithEmailLink.word, forKey: .isSignInWithEmailLink)
        }
        switch parseLink {
        case .none: try container.encodeNil(forKey: .parseLink)
        case .throwsError, .crash: try container.encode(parseLink.word, forKey: .parseLink)
        case .parsed(let url): try container.encode(url, forKey: .parseLink)
        }
        try container.encode(checkActionCode, forKey: .checkActionCode)
        try container.encode(notes, forKey: .notes)
    }
}

extension SDKActionCodeURL: Encodable {
    enum CodingKeys: String, CodingKey { case operation, code, apiKey, continueUrl, languageCode, tenantId }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(operation, forKey: .operation)
        try container.encode(code, forKey: .code)
        try container.encode(apiKey, forKey: .apiKey)
        try container.encode(continueUrl, forKey: .continueUrl)
        try container.encode(languageCode, forKey: .languageCode)
        try container.encode(tenantId, forKey: .tenantId)
    }
}

extension SDKSignInCheck {
    /// As `inspect` prints it: `true`, `false`, `throws`, `crash`.
    public var word: String {
        switch self {
        case .yes: "true"
        case .no: "false"
        case .throwsError: "throws"
        case .crash: "crash"
        }
    }
}

extension SDKParsedLink {
    /// `null`, `throws`, `crash`, or the operation read.
    public var word: String {
        switch self {
        case .none: "null"
        case .throwsError: "throws"
        case .crash: "crash"
        case .parsed(let url): url.operation
        }
    }
}
