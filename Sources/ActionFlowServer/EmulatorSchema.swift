import ActionFlowBackend
import ActionFlowModel
import Foundation

extension AuthErrorCode {
    /// A body the emulator's OpenAPI validation refuses; the detail is what it names
    /// (`/displayName must be string`), and the message is `Invalid JSON payload received. ` and
    /// that (firebase-tools `src/emulator/auth/server.ts:248-258`).
    static let schemaViolation = AuthErrorCode("INVALID_JSON_PAYLOAD")
}

/// What `serve --as emulator` refuses before an operation reads a body, as the emulator's schema
/// validation does (firebase-tools #6424: nulls are refused there, where production reads them
/// as absent). Top-level fields only; the first refusal in the order of the schema's properties,
/// which are alphabetical in `apiSpec.ts`.
enum EmulatorSchema {
    /// `requestType` values `apiSpec.ts` allows (`GoogleCloudIdentitytoolkitV1GetOobCodeRequest`).
    static let requestTypes = Set(IdentityToolkitMapping.enums["requestType"] ?? [])

    /// The first field the emulator's validation names, or nil. `object` is the normalised body.
    static func violation<Wire: Decodable>(in object: [String: Any], as wire: Wire.Type) -> AuthFailure? {
        for key in object.keys.sorted() {
            let value = object[key]
            if value is NSNull, let type = jsonType(of: key, in: object, as: wire) {
                return .server(.schemaViolation, detail: "/\(key) must be \(type)")
            }
            // An integer outside the enum stays a number after `normalise`, then fails as a name.
            if Wire.self == SendOobCodeRequest.self, key == "requestType", !(value is NSNull), !((value as? String).map(requestTypes.contains) ?? false) {
                return .server(.schemaViolation, detail: "/requestType must be equal to one of the allowed values")
            }
        }
        return nil
    }

    /// The JSON type `Wire` reads at `field`, learnt by decoding the body with a value of each
    /// type there: the first one it accepts (a string field also takes a number or boolean, as
    /// `RESTMapping` converts them). Nil for a field `Wire` ignores (it takes every type), whose
    /// null the emulator's schema may not know either; `string` for one that takes none of them
    /// (an enum).
    static func jsonType<Wire: Decodable>(of field: String, in object: [String: Any], as _: Wire.Type) -> String? {
        var probe = object.filter { !($0.value is NSNull) }
        let candidates: [(name: String, value: Any)] = [("string", ""), ("boolean", false), ("array", [Any]()), ("object", [String: Any]()), ("number", 0)]
        let accepted = candidates.filter { candidate in
            probe[field] = candidate.value
            do throws(AuthFailure) {
                let _: Wire = try RESTMapping.decode(probe)
                return true
            } catch {
                return !names(field, error)
            }
        }
        if accepted.count == candidates.count { return nil }
        return accepted.first?.name ?? "string"
    }

    /// Whether `failure` is about `field` (and not, say, another field missing).
    private static func names(_ field: String, _ failure: AuthFailure) -> Bool {
        guard case .server(let code, let detail) = failure else { return false }
        if field == "requestType" && code == .invalidRequestType { return true }
        return detail?.contains("'\(field)'") == true || detail?.contains("'\(field).") == true
    }
}
