import ActionFlowModel
import Foundation
import Testing

/// Every byte reaches the descriptor, or the write's error comes back.
@Suite struct DescriptorWriteTests {
    @Test("a write larger than a pipe holds arrives whole")
    func wholeWrite() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0) }
        let reader = Task.detached { () -> [UInt8] in
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while case let count = read(readEnd, &buffer, buffer.count), count > 0 { received += buffer[..<count] }
            return received
        }
        let failure = bytes.withUnsafeBytes { DescriptorWrite.all(writeEnd, $0) }
        close(writeEnd)
        let received = await reader.value
        close(readEnd)
        #expect(failure == nil)
        #expect(received == bytes)
    }

    @Test("a file replaced in one step: the new bytes, created private, no temporary file left; a missing folder gives its error")
    func replaceFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("replace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("secret.sh").path
        try "old, readable by all".write(toFile: path, atomically: false, encoding: .utf8)
        let failure = Array("new".utf8).withUnsafeBytes { DescriptorWrite.replaceFile(at: path, with: $0, mode: 0o700) }
        #expect(failure == nil)
        #expect(FileManager.default.contents(atPath: path) == Data("new".utf8))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode & 0o077 == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["secret.sh"])
        let missing = Array("x".utf8).withUnsafeBytes { DescriptorWrite.replaceFile(at: folder.path + "/no/such/file", with: $0, mode: 0o644) }
        #expect(missing == ENOENT)
    }

    @Test func closedDescriptorGivesItsError() {
        let failure = [UInt8](repeating: 1, count: 10).withUnsafeBytes { DescriptorWrite.all(-1, $0) }
        #expect(failure == EBADF)
    }
}
