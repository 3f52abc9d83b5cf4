import Foundation

/// How Identity Toolkit requests are spelled on the wire besides the v1 names, as the Auth
/// Emulator reads them: Google's REST mapping (snake_case keys, proto enums as integers: Android
/// sends `requestType: 6`) and the legacy v3 `relyingparty` paths the iOS SDK calls. Shared by
/// `serve`, which answers such requests, and the capture reader, which explains them.
public enum IdentityToolkitMapping {
    /// v3 `relyingparty` method → v1 path below `/v1/`, as the emulator rewrites them
    /// (firebase-tools `src/emulator/auth/server.ts` lines 414-431, `registerLegacyRoutes`).
    public static let legacyV3Methods: [String: String] = [
        "createAuthUri": "accounts:createAuthUri", "deleteAccount": "accounts:delete",
        "emailLinkSignin": "accounts:signInWithEmailLink", "getAccountInfo": "accounts:lookup",
        "getOobConfirmationCode": "accounts:sendOobCode", "getProjectConfig": "projects",
        "getRecaptchaParam": "recaptchaParams", "publicKeys": "publicKeys",
        "resetPassword": "accounts:resetPassword", "sendVerificationCode": "accounts:sendVerificationCode",
        "setAccountInfo": "accounts:update", "setProjectConfig": "setProjectConfig",
        "signupNewUser": "accounts:signUp", "verifyAssertion": "accounts:signInWithIdp",
        "verifyCustomToken": "accounts:signInWithCustomToken", "verifyPassword": "accounts:signInWithPassword",
        "verifyPhoneNumber": "accounts:signInWithPhoneNumber",
    ]

    /// Proto enum values by field name, index = integer value (firebase-tools
    /// `src/emulator/auth/apiSpec.ts` lines 4911-4920 for `requestType`).
    public static let enums: [String: [String]] = [
        "requestType": [
            "OOB_REQ_TYPE_UNSPECIFIED", "PASSWORD_RESET", "OLD_EMAIL_AGREE", "NEW_EMAIL_ACCEPT", "VERIFY_EMAIL",
            "RECOVER_EMAIL", "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL", "REVERT_SECOND_FACTOR_ADDITION",
        ],
        "clientType": ["CLIENT_TYPE_UNSPECIFIED", "CLIENT_TYPE_WEB", "CLIENT_TYPE_ANDROID", "CLIENT_TYPE_IOS"],
        "order": ["ORDER_UNSPECIFIED", "ASC", "DESC"],
        "sortBy": ["SORT_BY_FIELD_UNSPECIFIED", "USER_ID", "NAME", "CREATED_AT", "LAST_LOGIN_AT", "USER_EMAIL"],
    ]

    /// `request_type` → `requestType`. Keys without `_` are kept as they are (lodash's
    /// `camelCase` would also turn `iOSBundleId` into `iOsBundleId`, a field the emulator ignores
    /// but `serve`'s production behaviour reads).
    public static func camelCase(_ key: String) -> String {
        guard key.contains("_") || key.contains("-") else { return key }
        let words = key.split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init).filter { !$0.isEmpty }
        guard let first = words.first else { return key }
        return first.lowercased() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
    }

    /// Keys camelCased at every depth; integer enums named (a number, or its digits as text);
    /// the JS SDK's `androidMinimumVersionCode` read as `androidMinimumVersion`; an unspecified
    /// request type treated as absent.
    public static func normalise(_ value: Any) -> Any {
        if let array = value as? [Any] { return array.map(normalise) }
        guard let object = value as? [String: Any] else { return value }
        var result: [String: Any] = [:]
        for (key, inner) in object {
            result[camelCase(key)] = normalise(inner)
        }
        for (field, names) in enums {
            if let number = result[field] as? NSNumber, !isBoolean(number) {
                // A whole index only: `allowedValues[1.5]` finds nothing in the emulator either.
                if let index = Int(exactly: number.doubleValue), names.indices.contains(index) { result[field] = names[index] }
            } else if let text = result[field] as? String, let index = Int(text), String(index) == text, names.indices.contains(index) {
                // An index written as text too, as the emulator looks it up (`allowedValues[value]`,
                // firebase-tools `src/emulator/auth/server.ts` line 625): a form's fields are all text.
                result[field] = names[index]
            }
        }
        if result["androidMinimumVersion"] == nil, let code = result["androidMinimumVersionCode"] {
            result["androidMinimumVersion"] = code
        }
        result["androidMinimumVersionCode"] = nil
        if result["requestType"] as? String == "OOB_REQ_TYPE_UNSPECIFIED" { result["requestType"] = nil }
        return result
    }

    /// Whether a body labelled `contentType` is a form: it says so and does not look like JSON
    /// (curl and URLSession label JSON bodies as forms unless told otherwise).
    public static func isForm(_ body: Data, contentType: String?) -> Bool {
        let firstByte = body.first { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
        return contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
            && firstByte != UInt8(ascii: "{") && firstByte != UInt8(ascii: "[")
    }

    /// A request body as a normalised object: a form's fields or a JSON object; nil for anything else.
    public static func requestObject(body: Data, contentType: String?) -> [String: Any]? {
        if isForm(body, contentType: contentType) { return formObject(body) }
        guard let parsed = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else { return nil }
        return normalise(parsed) as? [String: Any]
    }

    /// A form's fields as a normalised object. A form has only text: `true` and `false` are
    /// taken as Booleans, as a JSON body would send them (a text field that reads `true` is
    /// turned back into text where its request wants one), and an enum's digits as its index.
    public static func formObject(_ body: Data) -> [String: Any] {
        let fields = HTMLForm.decode(body).mapValues { value -> Any in
            switch value {
            case "true": NSNumber(value: true)
            case "false": NSNumber(value: false)
            default: value
            }
        }
        return normalise(fields) as? [String: Any] ?? [:]
    }

    /// JSON `true`/`false` arrive as `NSNumber`s of type `c` on every platform.
    public static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }
}

/// `application/x-www-form-urlencoded` bodies.
public enum HTMLForm {
    public static func decode(_ body: Data) -> [String: String] {
        Dictionary(QueryParameter.ordered(String(decoding: body, as: UTF8.self)).map { ($0.name, $0.value) }) { first, _ in first }
    }
}
