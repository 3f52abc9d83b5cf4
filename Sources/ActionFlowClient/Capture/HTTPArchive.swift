import ActionFlowModel
import Foundation

/// An HTTP capture in HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), as browser
/// devtools, Proxyman, Charles and mitmproxy's `hardump` write it: only the fields an email-action
/// flow needs. Every field is optional here so that a missing one is reported by name
/// (`HTTPArchive.load`) rather than as a decoding failure.
public struct HTTPArchive: Sendable, Decodable {
    public struct Log: Sendable, Decodable {
        public var entries: [Entry]?
    }

    public struct Entry: Sendable, Decodable {
        public var startedDateTime: String?
        /// Milliseconds the exchange took.
        public var time: Double?
        public var request: Request?
        public var response: Response?
    }

    public struct Request: Sendable, Decodable {
        public var method: String?
        public var url: String?
        public var headers: [Header]?
        public var postData: PostData?
    }

    public struct Response: Sendable, Decodable {
        /// 0 when no response arrived (HAR's convention for an aborted request).
        public var status: Int?
        public var headers: [Header]?
        public var content: Content?
        public var redirectURL: String?
    }

    public struct Header: Sendable, Decodable {
        public var name: String
        public var value: String
    }

    public struct PostData: Sendable, Decodable {
        public var mimeType: String?
        public var text: String?
        /// Form fields, which some tools give instead of `text`.
        public var params: [Parameter]?
        /// Not in HAR 1.2, but written by tools that keep binary bodies as base64.
        public var encoding: String?
    }

    public struct Parameter: Sendable, Decodable {
        public var name: String
        public var value: String?
    }

    public struct Content: Sendable, Decodable {
        public var mimeType: String?
        public var text: String?
        /// `base64` when `text` holds the body's bytes in base64.
        public var encoding: String?
    }

    public var log: Log?
}

/// Why a file is no capture this tool can read: one line, safe to print.
public enum CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    /// The JSON stops before its last value is closed: a download or a copy cut short.
    case cutShort(byteOffset: Int, line: Int, column: Int)
    case notJSON(String)
    case notHAR(String)
    case entryWithoutRequest(entry: Int)
    case noIdentityToolkitCall(entries: Int)

    public var description: String {
        switch self {
        case .empty:
            "the file is empty"
        case .cutShort(let offset, let line, let column):
            "the file is cut short: its JSON ends at byte \(offset) (line \(line), column \(column)) before every object and list is closed"
        case .notJSON(let detail):
            "not JSON: \(UntrustedText.sanitize(detail))"
        case .notHAR(let detail):
            "not a HAR capture: \(UntrustedText.sanitize(detail))"
        case .entryWithoutRequest(let entry):
            "log.entries[\(entry)] has no request (a HAR entry needs request.method and request.url)"
        case .noIdentityToolkitCall(let entries):
            "no Identity Toolkit or securetoken call among its \(entries) entries, and no action link: nothing of an email-action flow to explain"
        }
    }
}

extension HTTPArchive {
    /// The capture in `data`, or why it is none. HAR 1.2 requires `log.entries`, and each entry's
    /// `request` with its `method` and `url`.
    public static func load(_ data: Data) throws(CaptureError) -> HTTPArchive {
        guard data.contains(where: { !JSONScan.isSpace($0) }) else { throw .empty }
        if let end = JSONScan.unfinishedEnd(data) { throw .cutShort(byteOffset: end.offset, line: end.line, column: end.column) }
        let archive: HTTPArchive
        do {
            archive = try JSONDecoder().decode(HTTPArchive.self, from: data)
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            // Text that is no UTF-8, and JSON nested past what a parser takes, are named apart.
            throw .notJSON(JSONScan.invalidUTF8(data).map { "it is not UTF-8 text (the first bad byte is at offset \($0))" }
                ?? JSONScan.deepestNesting(data).flatMap { $0 > JSONScan.deepestReadable ? "it nests \($0) levels deep, past the \(JSONScan.deepestReadable) a JSON parser reads" : nil }
                ?? context.debugDescription)
        } catch let DecodingError.typeMismatch(type, context) {
            let path = fieldPath(context.codingPath)
            throw .notHAR(path.isEmpty ? "the top level is not an object" : "\(path) is not \(typeName(type))")
        } catch let DecodingError.valueNotFound(type, context) {
            let path = fieldPath(context.codingPath)
            throw .notHAR(path.isEmpty ? "the whole file is the JSON value null, not an object" : "\(path) is null, not \(typeName(type))")
        } catch let DecodingError.keyNotFound(key, context) {
            throw .notHAR("\(fieldPath(context.codingPath + [key])) is missing")
        } catch {
            throw .notHAR(String(describing: error))
        }
        guard let log = archive.log else { throw .notHAR("it has no log object") }
        guard let entries = log.entries else { throw .notHAR("its log has no entries list") }
        for (index, entry) in entries.enumerated() {
            guard let request = entry.request else { throw .entryWithoutRequest(entry: index) }
            if request.method == nil { throw .notHAR("log.entries[\(index)].request.method is missing") }
            if request.url == nil { throw .notHAR("log.entries[\(index)].request.url is missing") }
        }
        return archive
    }

    /// Hands each entry of the capture to `body`, in order, decoding one entry at a time so that
    /// memory follows the largest entry, not the file (a 100 MB capture is mostly other traffic's
    /// bodies); returns how many entries there are. `release` is told, as the reading moves on,
    /// which bytes are no longer needed (a mapped file gives their pages back). A file the entry
    /// scan cannot split is decoded whole, which names what is wrong with it as `load` does.
    public static func forEachEntry(_ data: Data, release: ((Range<Int>) -> Void)? = nil, _ body: (Int, Entry) -> Void) throws(CaptureError) -> Int {
        guard data.contains(where: { !JSONScan.isSpace($0) }) else { throw .empty }
        var scanner = EntryScanner()
        let decoder = JSONDecoder()
        var count = 0
        var released = 0
        var problem: CaptureError?
        let split: Bool = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let chunk = 1 << 20
            for index in bytes.indices {
                switch scanner.step(bytes[index], at: index) {
                case nil:
                    break
                case .unexpected:
                    return false
                case .entry(let range):
                    let slice = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: raw.baseAddress! + range.lowerBound), count: range.count, deallocator: .none)
                    guard let entry = try? decoder.decode(Entry.self, from: slice) else { return false }
                    guard let request = entry.request else { problem = .entryWithoutRequest(entry: count); return true }
                    if request.method == nil { problem = .notHAR("log.entries[\(count)].request.method is missing"); return true }
                    if request.url == nil { problem = .notHAR("log.entries[\(count)].request.url is missing"); return true }
                    body(count, entry)
                    count += 1
                }
                // Every megabyte: what lies before the entry being read is done with.
                let done = scanner.openEntryStart ?? index
                if let release, done - released >= chunk {
                    release(released..<done)
                    released = done
                }
            }
            return scanner.sawEntries && scanner.closedTop
        }
        if let problem { throw problem }
        guard split else {
            // Read whole: it names the fault (cut short, not JSON, not HAR) precisely.
            if let end = JSONScan.unfinishedEnd(data) { throw .cutShort(byteOffset: end.offset, line: end.line, column: end.column) }
            _ = try load(data)
            throw .notHAR("its log.entries cannot be read one by one")
        }
        return count
    }

    /// `log.entries[3].request.url`.
    static func fieldPath(_ path: [any CodingKey]) -> String {
        path.reduce("") { text, key in
            if let index = key.intValue { return text + "[\(index)]" }
            return text.isEmpty ? key.stringValue : text + "." + key.stringValue
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        if type == String.self { return "a string" }
        if type == Int.self || type == Double.self { return "a number" }
        if type == Bool.self { return "true or false" }
        if type == [Any].self { return "a list" }
        if type == [String: Any].self { return "an object" }
        return "of the expected type"
    }
}

/// A byte scan of JSON's structure, for the one error a parser reports badly: text that stops
/// before its containers close.
enum JSONScan {
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Foundation's JSON parser refuses deeper nesting than this.
    static let deepestReadable = 512

    /// The offset of the first byte that breaks UTF-8, if one does.
    static func invalidUTF8(_ data: Data) -> Int? {
        var iterator = data.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// JSON's containers as a byte scan meets them, strings skipped: how deep each byte sits.
    struct Nesting {
        private(set) var depth = 0
        private(set) var inString = false
        private var escaped = false

        /// Reads one byte; returns the change of depth it makes (+1 opens, -1 closes, 0 neither).
        mutating func read(_ byte: UInt8) -> Int {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                return 0
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1; return 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1; return -1
            default: break
            }
            return 0
        }
    }

    /// How deep the text's containers nest (strings skipped); nil when it is no container.
    static func deepestNesting(_ data: Data) -> Int? {
        var nesting = Nesting()
        var deepest = 0
        for byte in data where nesting.read(byte) > 0 { deepest = max(deepest, nesting.depth) }
        return deepest == 0 ? nil : deepest
    }

    /// Where the text ends, when it ends inside a string or with a container still open.
    static func unfinishedEnd(_ data: Data) -> (offset: Int, line: Int, column: Int)? {
        guard let first = data.first(where: { !isSpace($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        var nesting = Nesting()
        var line = 1
        var column = 1
        for byte in data {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            // More closed than opened: malformed, which the parser names better.
            if nesting.read(byte) < 0, nesting.depth < 0 { return nil }
        }
        guard nesting.inString || nesting.depth > 0 else { return nil }
        return (data.count, line, column)
    }
}

/// Finds, byte by byte, each object of the top-level object's `log.entries` list, without
/// decoding anything, so that a capture is read one entry at a time.
struct EntryScanner {
    enum Event {
        /// An entry's bytes, from its `{` to its `}`.
        case entry(Range<Int>)
        /// Not shaped as a HAR capture: the decoder then says how.
        case unexpected
    }

    /// Each open container: whether it is an object, and the key it sits under.
    private var stack: [(isObject: Bool, key: [UInt8]?)] = []
    private var expectKey = false
    private var pendingKey: [UInt8]?
    private var key: [UInt8] = []
    private var inKey = false
    private var inString = false
    private var escaped = false
    private(set) var sawEntries = false
    private var sawLog = false
    private(set) var closedTop = false
    /// Where the entry being read starts; bytes before it (and before the current one when
    /// none is open) are no longer needed.
    private(set) var openEntryStart: Int?
    /// Between the entries: what the list may hold next.
    private enum ListPosition { case first, afterComma, afterEntry }
    private var listPosition = ListPosition.first

    private static let log = Array("log".utf8)
    private static let entries = Array("entries".utf8)

    private var inEntriesList: Bool {
        stack.count == 3 && stack[1].isObject && stack[1].key == Self.log && !stack[2].isObject && stack[2].key == Self.entries
    }

    mutating func step(_ byte: UInt8, at index: Int) -> Event? {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                if inKey { pendingKey = key }
                inKey = false
                return nil
            }
            // Keys are kept only where `log` and `entries` can be, and only short ones.
            if inKey { if key.count < 16 { key.append(byte) } else { inKey = false } }
            return nil
        }
        if closedTop { return JSONScan.isSpace(byte) ? nil : .unexpected }
        // Between entries only JSON's own syntax: one comma between two, none after the last.
        if inEntriesList, openEntryStart == nil, !JSONScan.isSpace(byte) {
            switch (listPosition, byte) {
            case (.first, UInt8(ascii: "{")), (.afterComma, UInt8(ascii: "{")), (.first, UInt8(ascii: "]")), (.afterEntry, UInt8(ascii: "]")): break
            case (.afterEntry, UInt8(ascii: ",")):
                listPosition = .afterComma
                return nil
            default: return .unexpected
            }
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
            if expectKey {
                expectKey = false
                inKey = stack.count <= 2
                key.removeAll(keepingCapacity: true)
            }
        case UInt8(ascii: ","):
            if stack.last?.isObject == true {
                expectKey = true
                pendingKey = nil
            }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = byte == UInt8(ascii: "{")
            if stack.isEmpty, !isObject { return .unexpected }
            if inEntriesList {
                guard isObject else { return .unexpected }
                openEntryStart = index
            }
            let key = stack.last?.isObject == true ? pendingKey : nil
            // A second `log`, or a second `entries` list in it: the decoder keeps only one of
            // them, so the whole file is decoded instead.
            if stack.count == 1, key == Self.log {
                if sawLog { return .unexpected }
                sawLog = true
            }
            stack.append((isObject, key))
            if inEntriesList {
                if sawEntries { return .unexpected }
                sawEntries = true
            }
            expectKey = isObject
            pendingKey = nil
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            guard !stack.isEmpty else { return .unexpected }
            stack.removeLast()
            if stack.isEmpty { closedTop = true }
            if inEntriesList, let start = openEntryStart {
                openEntryStart = nil
                listPosition = .afterEntry
                return .entry(start..<(index + 1))
            }
        default:
            break
        }
        return nil
    }
}
