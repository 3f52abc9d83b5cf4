import ActionFlowBackend
import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import Foundation

/// `serve`'s request handling below HTTP: `EmulatorAPI.handle`, the one entry point every
/// request goes through once Hummingbird has parsed it (path, query, headers, body), on a fresh
/// embedded project per input. Up to four requests per input, so that later ones can use what
/// earlier ones made (users, codes, a replaced project, the clock).
///
/// Input: requests separated by a line `===`; each is `METHOD TARGET`, header lines
/// `name: value`, an empty line, then the body.
///
/// Invariants, for every response:
/// - never a 500 (the server has no internal error to report), always a status it means;
/// - header names are tokens and no header value holds CR, LF or NUL;
/// - a JSON response parses; an error is the emulator's shape `{"error":{"code":STATUS,"message":...}}`
///   with its code equal to the HTTP status, except `GET /emulator/action`'s, which answers
///   `{"authEmulator":{"error":...}}` as `handlers.ts` does;
/// - HTML pages never carry request text as markup (`<fuzz` is never in a page);
/// - only an admin caller (`Authorization: Bearer owner`) ever sees an `oobCode` or `oobLink`
///   in a `sendOobCode` answer.
enum ServeChecks {
    static let baseProject = try? ProjectConfigLoader.loadDefault()

    struct ParsedRequest {
        var request: APIRequest
        var isAdmin: Bool
    }

    static func parse(_ data: Data) -> [ParsedRequest] {
        let text = String(decoding: data, as: UTF8.self)
        var requests: [ParsedRequest] = []
        for chunk in text.components(separatedBy: "\n===\n").prefix(4) {
            var lines = chunk.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
            guard let first = lines.next() else { continue }
            let parts = first.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let target = String(parts[1])
            let path = String(target.prefix { $0 != "?" })
            let query = target.contains("?") ? String(target.drop { $0 != "?" }.dropFirst()) : nil
            var headers: [String: String] = [:]
            var bodyLines: [Substring] = []
            var inBody = false
            while let line = lines.next() {
                if inBody {
                    bodyLines.append(line)
                } else if line.isEmpty {
                    inBody = true
                } else if let colon = line.firstIndex(of: ":") {
                    headers[String(line[..<colon])] = String(line[line.index(after: colon)...].drop { $0 == " " })
                }
            }
            let request = APIRequest(method: String(parts[0]), path: path, rawQuery: query, headers: headers,
                                     body: Data(bodyLines.joined(separator: "\n").utf8))
            requests.append(ParsedRequest(request: request, isAdmin: request.headers["authorization"] == "Bearer owner"))
        }
        return requests
    }

    static func check(_ data: Data) async -> [String] {
        guard let baseProject else { return ["the bundled project does not load"] }
        let api = EmulatorAPI(transport: EmbeddedTransport(configuration: baseProject), project: ServedProject(baseProject))
        var violations = Violations()
        for parsed in parse(data) {
            let response = await api.handle(parsed.request)
            checkResponse(response, to: parsed, into: &violations)
        }
        return violations.list
    }

    static func checkResponse(_ response: APIResponse, to parsed: ParsedRequest, into violations: inout Violations) {
        let request = parsed.request
        let what = "\(request.method) \(ScreenSafety.describe(request.path, limit: 80))"
        violations.expect(response.status != 500, "\(what) answered 500")
        violations.expect((200...599).contains(response.status), "\(what) answered status \(response.status)")
        for (name, value) in response.headers.merging(["content-type": response.contentType], uniquingKeysWith: { first, _ in first }) {
            violations.expect(!name.isEmpty && name.utf8.allSatisfy(isTokenByte), "\(what): header name \(ScreenSafety.describe(name)) is not a token")
            violations.expect(!value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }, "\(what): header \(name) holds CR, LF or NUL")
        }
        if response.contentType.hasPrefix("application/json") {
            guard let json = try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed]) else {
                violations.fail("\(what): a JSON answer that does not parse")
                return
            }
            if response.status >= 400, request.path == "/emulator/action", request.method == "GET" {
                // handlers.ts answers its link page's errors as `{"authEmulator":{"error":...}}`;
                // other methods are not routed there and get the general 404.
                let error = ((json as? [String: Any])?["authEmulator"] as? [String: Any])?["error"] as? String
                violations.expect(!(error ?? "").isEmpty, "\(what): error answer without handlers.ts's authEmulator.error")
            } else if response.status >= 400 {
                let error = (json as? [String: Any])?["error"] as? [String: Any]
                violations.expect((error?["code"] as? Int) == response.status, "\(what): error answer without the emulator's shape (code \(String(describing: error?["code"])) for status \(response.status))")
                violations.expect(!((error?["message"] as? String) ?? "").isEmpty, "\(what): error answer without a message")
            }
            let isSendOobCode = request.path.hasSuffix(":sendOobCode") || request.path.hasSuffix("/getOobConfirmationCode")
            if isSendOobCode, !parsed.isAdmin, response.status == 200, let object = json as? [String: Any] {
                violations.expect(object["oobCode"] == nil && object["oobLink"] == nil, "\(what): a caller without admin credentials got the code")
            }
        }
        if response.contentType.hasPrefix("text/html") {
            let page = String(decoding: response.body, as: UTF8.self).lowercased()
            violations.expect(!page.contains("<fuzz"), "\(what): request text became markup in the page")
        }
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
