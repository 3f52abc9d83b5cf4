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
/// as absent): a null or a value of the wrong type at any depth, named by its JSON pointer
/// (`/mfa/enrollments/0/displayName must be string`, ajv's words: exegesis `validators.ts:148-160`).
/// Only the first is reported, in the order of the schema's properties, which are alphabetical
/// in `apiSpec.ts`. A number where a string is expected passes, as the emulator turns it into
/// one first (`server.ts:614-629`).
enum EmulatorSchema {
    /// `requestType` values `apiSpec.ts` allows (`GoogleCloudIdentitytoolkitV1GetOobCodeRequest`).
    static let requestTypes = Set(IdentityToolkitMapping.enums["requestType"] ?? [])

    /// A place in a JSON body.
    enum Step: Equatable {
        case key(String)
        case index(Int)

        /// As a JSON pointer names it.
        var pointer: String {
            switch self {
            case .key(let key): key
            case .index(let index): String(index)
            }
        }

        /// As a decoding error's coding path names it (`RESTMapping`'s `Invalid value at 'a.Index 0'`).
        var codingName: String {
            switch self {
            case .key(let key): key
            case .index(let index): "Index \(index)"
            }
        }
    }

    /// How many nulls are probed for their type: each probe decodes the body five times, and a
    /// body of a million nulls in fields serve does not read must not cost a million probes.
    static let probedNulls = 16
    /// Bodies with more values than this are not probed at all (an SDK's request holds a few
    /// dozen): their nulls read as absent, as production reads them.
    static let probedValues = 2048

    /// How many values `value` holds, counting stops past `limit`.
    static func valueCount(_ value: Any, limit: Int) -> Int {
        var count = 1
        if let object = value as? [String: Any] {
            for child in object.values where count <= limit { count += valueCount(child, limit: limit - count) }
        } else if let array = value as? [Any] {
            for child in array where count <= limit { count += valueCount(child, limit: limit - count) }
        }
        return count
    }

    /// The first field the emulator's validation names, or nil. `object` is the normalised body.
    static func violation<Wire: Decodable>(in object: [String: Any], as wire: Wire.Type) -> AuthFailure? {
        guard valueCount(object, limit: probedValues) <= probedValues else { return nil }
        // Nulls under a top-level field serve does not read are not probed one by one.
        var ignored: Set<String> = []
        var probed = 0
        for path in nullPaths(in: object, at: []) {
            guard case .key(let field)? = path.first, !ignored.contains(field), probed < probedNulls else { continue }
            probed += 1
            if path.count > 1, jsonType(at: [.key(field)], in: object, as: wire) == nil {
                ignored.insert(field)
                continue
            }
            if let type = jsonType(at: path, in: object, as: wire) { return refusal(path, "must be \(type)") }
        }
        // An integer outside the enum stays a number after `normalise`, then fails as a name.
        if Wire.self == SendOobCodeRequest.self, let value = object["requestType"], !((value as? String).map(requestTypes.contains) ?? false) {
            return refusal([.key("requestType")], "must be equal to one of the allowed values")
        }
        do throws(AuthFailure) {
            let _: Wire = try RESTMapping.decode(object)
        } catch {
            if let path = invalidValuePath(error, in: object), let type = jsonType(at: path, in: object, as: wire) {
                return refusal(path, "must be \(type)")
            }
        }
        return nil
    }

    static func refusal(_ path: [Step], _ rule: String) -> AuthFailure {
        .server(.schemaViolation, detail: "/\(path.map(\.pointer).joined(separator: "/")) \(rule)")
    }

    /// Every null in `value`, depth first, keys in alphabetical order.
    static func nullPaths(in value: Any, at path: [Step]) -> [[Step]] {
        if value is NSNull { return [path] }
        if let object = value as? [String: Any] {
            return object.keys.sorted().flatMap { nullPaths(in: object[$0] as Any, at: path + [.key($0)]) }
        }
        if let array = value as? [Any] {
            return array.indices.flatMap { nullPaths(in: array[$0], at: path + [.index($0)]) }
        }
        return []
    }

    /// The place `RESTMapping`'s "Invalid value at 'a.b'" names, when it is one in the body.
    static func invalidValuePath(_ failure: AuthFailure, in object: [String: Any]) -> [Step]? {
        guard case .server(.invalidArgument, let detail?) = failure, detail.hasPrefix("Invalid value at '"), detail.hasSuffix("'") else { return nil }
        let path = steps(detail.dropFirst("Invalid value at '".count).dropLast().split(separator: "."))
        return path.isEmpty || value(at: path, in: object) == nil ? nil : path
    }

    /// A coding path's names as steps (`JSONDecoder` names an array's element "Index N").
    static func steps(_ names: [some StringProtocol]) -> [Step] {
        names.map { name in
            if name.hasPrefix("Index "), let index = Int(name.dropFirst("Index ".count)) { .index(index) } else { .key(String(name)) }
        }
    }

    /// The JSON type `Wire` reads at `path`, learnt by decoding the body (its nulls left out)
    /// with a value of each type there: the first one it accepts (a string field also takes a
    /// number or boolean, as `RESTMapping` converts them). Nil for a place `Wire` ignores (it
    /// takes every type), whose null the emulator's schema may not know either; `string` for
    /// one that takes none of them (an enum).
    static func jsonType<Wire: Decodable>(at path: [Step], in object: [String: Any], as _: Wire.Type) -> String? {
        let base = withoutNulls(object) as? [String: Any] ?? [:]
        let candidates: [(name: String, value: Any)] = [("string", ""), ("boolean", false), ("array", [Any]()), ("object", [String: Any]()), ("number", 0)]
        let dotted = path.map(\.codingName).joined(separator: ".")
        let accepted = candidates.filter { candidate in
            guard let probe = replacing(at: path, with: candidate.value, in: base) as? [String: Any] else { return false }
            do throws(AuthFailure) {
                let _: Wire = try RESTMapping.decode(probe)
                return true
            } catch {
                return !names(dotted, error)
            }
        }
        if accepted.count == candidates.count { return nil }
        return accepted.first?.name ?? "string"
    }

    /// Whether `failure` is about the place `dotted` names (and not, say, another field missing).
    private static func names(_ dotted: String, _ failure: AuthFailure) -> Bool {
        guard case .server(let code, let detail) = failure else { return false }
        if dotted == "requestType" && code == .invalidRequestType { return true }
        return detail?.contains("'\(dotted)'") == true || detail?.contains("'\(dotted).") == true
    }

    static func value(at path: [Step], in root: Any) -> Any? {
        var current: Any = root
        for step in path {
            switch step {
            case .key(let key):
                guard let next = (current as? [String: Any])?[key] else { return nil }
                current = next
            case .index(let index):
                guard let array = current as? [Any], array.indices.contains(index) else { return nil }
                current = array[index]
            }
        }
        return current
    }

    /// `root` with `value` at `path`, made where missing (an array index only where it exists).
    static func replacing(at path: [Step], with value: Any, in root: Any) -> Any {
        guard let first = path.first else { return value }
        let rest = Array(path.dropFirst())
        switch first {
        case .key(let key):
            var object = root as? [String: Any] ?? [:]
            object[key] = replacing(at: rest, with: value, in: object[key] ?? [String: Any]())
            return object
        case .index(let index):
            guard var array = root as? [Any], array.indices.contains(index) else { return root }
            array[index] = replacing(at: rest, with: value, in: array[index])
            return array
        }
    }

    /// The body with every null left out (an object's key dropped, an array's element kept as `{}`
    /// so that indices stay where they were).
    static func withoutNulls(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            return object.filter { !($0.value is NSNull) }.mapValues(withoutNulls)
        }
        if let array = value as? [Any] {
            return array.map { $0 is NSNull ? [String: Any]() : withoutNulls($0) }
        }
        return value
    }
}
