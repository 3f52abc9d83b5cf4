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
    static let blockSize = 64 * 1024
    /// Lines read before the workers share them out.
    static let batchLines = 512

    let authorizedDomains: [String]?
    /// Writes each object as soon as it is made (someone is typing or watching), instead of in
    /// large blocks.
    let flushEachLine: Bool
    /// Threads inspecting lines at once; one makes the stream strictly line after line.
    var workers = 1

    /// The default number of workers: one per core, at most four.
    static var defaultWorkers: Int { min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4) }

    /// Inspects every line of `input` into `output`; returns the number of lines read.
    @discardableResult
    func run(input: Int32, output: Int32) throws -> Int {
        var reader = LineReader(descriptor: input, limit: LinkInspector.maximumLinkBytes)
        if workers > 1 && !flushEachLine { return try runInBatches(&reader, output: output) }
        // Lines gather in the writer's buffer and leave in large writes.
        var json = JSONLineWriter(capacity: Self.blockSize * 2)
        var number = 0
        while let line = try reader.next() {
            number += 1
            write(line, number: number, into: &json)
            json.append(0x0A)
            if flushEachLine || json.count >= Self.blockSize { try json.flush(to: output) }
        }
        try json.flush(to: output)
        return number
    }

    /// Each batch of lines is cut into one contiguous slice per worker, and the slices' output
    /// is written in input order: memory holds one batch, however long the input.
    private func runInBatches(_ reader: inout LineReader, output: Int32) throws -> Int {
        let workers = self.workers
        let writers = UnsafeMutablePointer<JSONLineWriter>.allocate(capacity: workers)
        for index in 0..<workers { (writers + index).initialize(to: JSONLineWriter(capacity: Self.blockSize)) }
        defer {
            writers.deinitialize(count: workers)
            writers.deallocate()
        }
        var batch: [LineReader.Line] = []
        batch.reserveCapacity(Self.batchLines)
        var number = 0
        var finished = false
        while !finished {
            batch.removeAll(keepingCapacity: true)
            while batch.count < Self.batchLines {
                guard let line = try reader.next() else {
                    finished = true
                    break
                }
                batch.append(line)
            }
            let firstNumber = number + 1
            number += batch.count
            let slice = (batch.count + workers - 1) / workers
            batch.withUnsafeBufferPointer { lines in
                let work = SharedBatch(lines: lines, writers: writers)
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                    // Written through a local copy: the writers sit side by side in memory, and
                    // two threads bumping counts in one cache line slow each other down.
                    var writer = (work.writers + worker).move()
                    for index in min(worker * slice, work.lines.count)..<min((worker + 1) * slice, work.lines.count) {
                        write(work.lines[index], number: firstNumber + index, into: &writer)
                        writer.append(0x0A)
                    }
                    (work.writers + worker).initialize(to: writer)
                }
            }
            for worker in 0..<workers { try writers[worker].flush(to: output) }
        }
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
            // Plain ASCII, the usual line, needs no validation.
            let ascii = bytes.allSatisfy { $0 < 0x80 }
            guard let decoded = ascii ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self) else {
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

/// A batch and the workers' writers, handed to the workers: each reads the batch and touches
/// only its own writer, and the batch stays unchanged until every worker is done.
private struct SharedBatch: @unchecked Sendable {
    let lines: UnsafeBufferPointer<LineReader.Line>
    let writers: UnsafeMutablePointer<JSONLineWriter>
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
            let newline = firstNewline()
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

    /// memchr: the C library's search reads a line's bytes many at a time.
    private func firstNewline() -> Int? {
        chunk.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            return memchr(base + start, 0x0A, end - start).map { UnsafeRawPointer($0) - base }
        }
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

/// Reading or writing the stream failed (a closed pipe, a directory given as input...).
struct StreamError: Error, CustomStringConvertible {
    let action: String
    let code: Int32

    var description: String { "cannot \(action): \(String(cString: strerror(code)))" }
}
