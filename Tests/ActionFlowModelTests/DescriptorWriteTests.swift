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

    @Test func closedDescriptorGivesItsError() {
        let failure = [UInt8](repeating: 1, count: 10).withUnsafeBytes { DescriptorWrite.all(-1, $0) }
        #expect(failure == EBADF)
    }
}
