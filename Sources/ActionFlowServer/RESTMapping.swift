import ActionFlowModel
import Foundation

/// Request bodies as Google's REST mapping accepts them and the Auth Emulator reads them
/// (`validateAndFixRestMappingRequestBody` in firebase-tools' `server.ts`): keys and enums
/// normalised (`IdentityToolkitMapping`), and numbers accepted where strings are expected (the
/// Node Admin SDK sends `validSince: 1611780718`).
enum RESTMapping {
    /// The body as a JSON object: `{}` when empty, a form when the content type says so.
    static func object(from request: APIRequest) throws(AuthFailure) -> [String: Any] {
        try body(from: request).object()
    }

    /// The body, read only as far as telling whether its bytes are already in normal form.
    static func body(from request: APIRequest) throws(AuthFailure) -> Body {
        if request.body.isEmpty || request.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return Body(parsed: [:])
        }
        if IdentityToolkitMapping.isForm(request.body, contentType: request.headers["content-type"]) {
            return Body(parsed: IdentityToolkitMapping.formObject(request.body))
        }
        if looksNormal(request.body) { return Body(normalJSON: request.body) }
        return Body(parsed: try parseNormalised(request.body))
    }

    /// JSON parsed and normalised; only an object will do.
    static func parseNormalised(_ json: Data) throws(AuthFailure) -> [String: Any] {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
        } catch {
            throw .server(.invalidArgument, detail: "Invalid JSON payload received.")
        }
        guard let object = IdentityToolkitMapping.normalise(parsed) as? [String: Any] else {
            throw .server(.invalidArgument, detail: "Invalid JSON payload received.")
        }
        return object
    }

    /// A request body: already parsed and normalised, or bytes in normal form, parsed only if
    /// `JSONDecoder` cannot read them as the request type (then the general path gives the
    /// emulator's error).
    struct Body {
        private var parsed: [String: Any]?
        /// The body as sent, when `looksNormal` holds: `JSONDecoder` reads it as `decode(_:)`
        /// reads its normalised object, whenever it reads it at all.
        private(set) var normalJSON: Data?

        init(parsed: [String: Any]) { self.parsed = parsed }
        init(normalJSON: Data) { self.normalJSON = normalJSON }

        /// Whether the bytes may hold a JSON null (`null` anywhere, a string's text included).
        var mayHoldNull: Bool {
            if let parsed { return parsed.values.contains { $0 is NSNull } }
            return normalJSON?.firstRange(of: Data("null".utf8)) != nil
        }

        /// Normalised, for `decode`'s general path and the routes that read fields themselves.
        func object() throws(AuthFailure) -> [String: Any] {
            if let parsed { return parsed }
            return try parseNormalised(normalJSON ?? Data())
        }
    }

    /// `JSONDecoder` is thread-safe, and making one per request shows in `serve`'s profile.
    private static let sharedDecoder = JSONDecoder()

    /// `Wire` read straight from bytes in normal form, with the fields routing reads, in one
    /// parse; nil when the body is not in normal form or `JSONDecoder` cannot read it as `Wire`.
    static func decodeNormal<Wire: Decodable>(_ body: Body, as _: Wire.Type = Wire.self) -> (wire: Wire, routing: RoutingFields)? {
        guard let json = body.normalJSON, let routed = try? sharedDecoder.decode(Routed<Wire>.self, from: json) else { return nil }
        return (routed.wire, routed.routing)
    }

    /// Decodes `Wire` from `body`: straight from the bytes sent when they are already in normal
    /// form, else (and for every error, so that messages stay the same) through `decode(_:)`.
    static func decode<Wire: Decodable>(_ body: Body) throws(AuthFailure) -> Wire {
        if let json = body.normalJSON, let decoded = try? sharedDecoder.decode(Wire.self, from: json) {
            return decoded
        }
        return try decode(body.object())
    }

    /// The top-level fields `serve` routes by (project, tenant, ID token), when they are strings.
    struct RoutingFields: Decodable {
        var targetProjectId: String?
        var tenantId: String?
        var idToken: String?

        init(_ object: [String: Any]) {
            targetProjectId = object["targetProjectId"] as? String
            tenantId = object["tenantId"] as? String
            idToken = object["idToken"] as? String
        }

        private enum CodingKeys: String, CodingKey { case targetProjectId, tenantId, idToken }

        /// A field of another type reads as absent, as `as? String` reads it.
        init(from decoder: any Decoder) {
            let fields = try? decoder.container(keyedBy: CodingKeys.self)
            targetProjectId = (try? fields?.decodeIfPresent(String.self, forKey: .targetProjectId)) ?? nil
            tenantId = (try? fields?.decodeIfPresent(String.self, forKey: .tenantId)) ?? nil
            idToken = (try? fields?.decodeIfPresent(String.self, forKey: .idToken)) ?? nil
        }
    }

    /// A request type and the routing fields read from one decoder.
    private struct Routed<Wire: Decodable>: Decodable {
        var wire: Wire
        var routing: RoutingFields

        init(from decoder: any Decoder) throws {
            wire = try Wire(from: decoder)
            routing = RoutingFields(from: decoder)
        }
    }

    /// The enum fields' keys, as `looksNormal` compares them.
    private static let enumKeys = IdentityToolkitMapping.enums.keys.map { Array($0.utf8) }

    /// Keys of one object `looksNormal` compares for repeats; an object with more goes the general way.
    static let maxKeysCompared = 64

    /// Whether JSON's bytes are already in normal form, so that `JSONDecoder` reads them exactly
    /// as `decode(_:)` reads `normalise` of `JSONSerialization`'s parse: an object; keys with no
    /// `_`, `-` or escape, not `androidMinimumVersionCode`, none repeated within an object
    /// (`JSONSerialization` keeps the last, `JSONDecoder` the first); no number anywhere (the two
    /// parsers differ on some); no string that is, or could spell, `OOB_REQ_TYPE_UNSPECIFIED`; no
    /// enum given by its index as text.
    /// It does not check that the JSON is valid: `JSONDecoder` does.
    static func looksNormal(_ json: Data) -> Bool {
        json.withUnsafeBytes { bytes in
            var index = 0
            func skipSpace() {
                while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return false }
            // Per open container: where an object's keys so far are; nil for a list.
            var keys: [[Range<Int>]?] = []
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "{"): keys.append([])
                case UInt8(ascii: "["): keys.append(nil)
                case UInt8(ascii: "}"), UInt8(ascii: "]"): if !keys.isEmpty { keys.removeLast() }
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"): return false
                case UInt8(ascii: "\""):
                    let start = index + 1
                    var escaped = false
                    var unicodeEscape = false
                    index = start
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        if bytes[index] == UInt8(ascii: "\\") {
                            escaped = true
                            if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") { unicodeEscape = true }
                            index += 1
                        }
                        index += 1
                    }
                    let text = UnsafeRawBufferPointer(rebasing: bytes[start..<min(index, bytes.count)])
                    index += 1
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                        guard !escaped, !text.contains(UInt8(ascii: "_")), !text.contains(UInt8(ascii: "-")),
                              !text.elementsEqual("androidMinimumVersionCode".utf8) else { return false }
                        guard let earlier = keys.last ?? nil, earlier.count < maxKeysCompared,
                              !earlier.contains(where: { bytes[$0].elementsEqual(text) }) else { return false }
                        keys[keys.count - 1]?.append(start..<(start + text.count))
                    } else if unicodeEscape || text.elementsEqual("OOB_REQ_TYPE_UNSPECIFIED".utf8) {
                        return false
                    } else if !text.isEmpty, text.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                              let key = keys.last??.last, enumKeys.contains(where: { bytes[key].elementsEqual($0) }) {
                        // An enum's index as text, which normalising names.
                        return false
                    }
                    continue
                default: break
                }
                index += 1
            }
            return true
        }
    }

    /// Decodes `Wire` from a normalised object, turning numbers and booleans into strings where
    /// the type wants a string, and naming what is still wrong as the emulator does.
    static func decode<Wire: Decodable>(_ object: [String: Any]) throws(AuthFailure) -> Wire {
        var object = object
        for _ in 0..<32 {
            let data: Data
            do {
                data = try JSONSerialization.data(withJSONObject: object)
            } catch {
                throw .server(.invalidArgument, detail: "Invalid JSON payload received.")
            }
            do {
                return try sharedDecoder.decode(Wire.self, from: data)
            } catch let DecodingError.typeMismatch(type, context) where type == String.self || type == Optional<String>.self {
                let path = EmulatorSchema.steps(context.codingPath.map(\.stringValue))
                guard let value = EmulatorSchema.value(at: path, in: object), let text = scalarText(value) else {
                    throw .server(.invalidArgument, detail: "Invalid value at '\(fieldPath(context))'")
                }
                object = EmulatorSchema.replacing(at: path, with: text, in: object) as? [String: Any] ?? object
            } catch let DecodingError.keyNotFound(key, _) {
                throw .server(missingFieldCode(key.stringValue), detail: nil)
            } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
                throw .server(.invalidArgument, detail: "Invalid value at '\(fieldPath(context))'")
            } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
                if context.codingPath.last?.stringValue == "requestType" {
                    throw .server(.invalidRequestType, detail: "unknown requestType")
                }
                throw .server(.invalidArgument, detail: "Invalid value at '\(fieldPath(context))'")
            } catch {
                throw .server(.invalidArgument, detail: "Invalid JSON payload received.")
            }
        }
        throw .server(.invalidArgument, detail: "Invalid JSON payload received.")
    }

    private static func scalarText(_ value: Any) -> String? {
        if let number = value as? NSNumber {
            if IdentityToolkitMapping.isBoolean(number) { return number.boolValue ? "true" : "false" }
            if number.doubleValue == number.doubleValue.rounded(), abs(number.doubleValue) < 9.0e15 {
                return String(number.int64Value)
            }
            return number.stringValue
        }
        return nil
    }

    private static func fieldPath(_ context: DecodingError.Context) -> String {
        context.codingPath.map(\.stringValue).joined(separator: ".")
    }

    private static func missingFieldCode(_ field: String) -> AuthErrorCode {
        switch field {
        case "email": .missingEmail
        case "password": .missingPassword
        case "oobCode": .missingOobCode
        case "requestType": .missingRequestType
        default: .invalidArgument
        }
    }
}
