import ActionFlowModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `inspect --jsonl`: one link per input line in, one JSON object per line out, in order, so the
/// output lines up with the input line by line. A line that is no link becomes
/// `{"error": ..., "line": N}` and the stream goes on. Memory stays flat whatever the input: lines
/// are read in fixed chunks, and a line longer than a link may be is skipped to its end, not kept.
struct InspectStream {
    let authorizedDomains: [String]?
    /// Writes each object as soon as it is made (someone is typing or watching), instead of in
    /// large blocks.
    let flushEachLine: Bool

    /// Inspects every line of `input` into `output`; returns the number of lines read.
    @discardableResult
    func run(input: Int32, output: Int32) throws -> Int {
        var reader = LineReader(descriptor: input, limit: LinkInspector.maximumLinkBytes)
        var writer = BlockWriter(descriptor: output)
        var json = JSONLineWriter()
        var number = 0
        while let line = try reader.next() {
            number += 1
            json.removeAll()
            write(line, number: number, into: &json)
            writer.append(json.bytes)
            writer.append(0x0A)
            if flushEachLine || writer.isFull { try writer.flush() }
        }
        try writer.flush()
        return number
    }

    /// One input line as JSON: the link's anatomy as `inspect --json` gives it (compact), or the
    /// error with the line number.
    func write(_ line: LineReader.Line, number: Int, into json: inout JSONLineWriter) {
        let text: String
        switch line {
        case .tooLong(let bytes):
            return json.lineError(LinkParseError.tooLong(bytes: bytes, limit: LinkInspector.maximumLinkBytes).description, line: number)
        case .bytes(let bytes):
            guard let decoded = String(validating: bytes, as: UTF8.self) else {
                return json.lineError("line \(number) is not valid UTF-8", line: number)
            }
            text = decoded
        }
        do {
            json.anatomy(try LinkInspector.inspect(text, authorizedDomains: authorizedDomains))
        } catch {
            json.lineError(error.description, line: number)
        }
    }
}

/// Lines of a file descriptor, read in fixed chunks: `\n` ends a line (a `\r` before it is
/// dropped), and the last line needs no newline.
struct LineReader {
    enum Line: Equatable {
        case bytes([UInt8])
        /// Longer than the limit: only its length was kept.
        case tooLong(bytes: Int)
    }

    static let chunkSize = 64 * 1024

    let descriptor: Int32
    let limit: Int
    private var chunk = [UInt8](repeating: 0, count: LineReader.chunkSize)
    private var start = 0
    private var end = 0
    private var finished = false

    init(descriptor: Int32, limit: Int) {
        self.descriptor = descriptor
        self.limit = limit
    }

    /// The next line, or nil at the end of the input.
    mutating func next() throws -> Line? {
        var pending: [UInt8] = []
        var length = 0
        while true {
            if start == end {
                if finished { break }
                try fill()
                if start == end { break }
            }
            let newline = chunk[start..<end].firstIndex(of: 0x0A)
            let stop = newline ?? end
            let count = stop - start
            if length + count <= limit + 1 {
                pending.append(contentsOf: chunk[start..<stop])
            }
            length += count
            start = newline.map { $0 + 1 } ?? end
            if newline != nil { return line(pending, length: length) }
        }
        // The input ended: after a newline there is no line left, else the last one had none.
        return length == 0 ? nil : line(pending, length: length)
    }

    private func line(_ bytes: [UInt8], length: Int) -> Line {
        var bytes = bytes
        var length = length
        if bytes.last == 0x0D {
            bytes.removeLast()
            length -= 1
        }
        return length > limit ? .tooLong(bytes: length) : .bytes(bytes)
    }

    private mutating func fill() throws {
        start = 0
        end = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                end = count
                return
            }
            if count == 0 {
                finished = true
                return
            }
            if errno != EINTR { throw StreamError(action: "read the links", code: errno) }
        }
    }
}

/// Output gathered into large writes.
struct BlockWriter {
    static let blockSize = 64 * 1024

    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(Self.blockSize * 2)
    }

    var isFull: Bool { buffer.count >= Self.blockSize }

    mutating func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
    }

    mutating func append(_ byte: UInt8) {
        buffer.append(byte)
    }

    mutating func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw StreamError(action: "write the results", code: errno)
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Reading or writing the stream failed (a closed pipe, a directory given as input...).
struct StreamError: Error, CustomStringConvertible {
    let action: String
    let code: Int32

    var description: String { "cannot \(action): \(String(cString: strerror(code)))" }
}
