import ActionFlowLoad
import Foundation
import Testing

@Suite("Blocking work on a dedicated thread leaves the cooperative pool free")
struct DedicatedThreadTests {
    @Test("more blocked runs than the pool has threads, and a task on the pool still runs and frees them")
    func blockingLeavesPoolFree() async {
        let blockedRuns = ProcessInfo.processInfo.activeProcessorCount + 2
        // The runs start from the pool, behind the rest of the suite (on two cores, minutes of
        // tests that compute on the pool): give them time to; each wait ends as soon as it can.
        let patience: DispatchTime = .now() + 600
        let released = DispatchSemaphore(value: 0)
        let waiting = DispatchSemaphore(value: 0)
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<blockedRuns {
                group.addTask {
                    await DedicatedThread.run {
                        waiting.signal()
                        return released.wait(timeout: patience) == .success
                    }
                }
            }
            // Only once every run blocks: on the pool, they could not all block at once, and the
            // task below would wait for a free thread.
            let allBlocked = await DedicatedThread.run {
                (0..<blockedRuns).allSatisfy { _ in waiting.wait(timeout: patience) == .success }
            }
            #expect(allBlocked)
            let releaser = Task { for _ in 0..<blockedRuns { released.signal() } }
            await releaser.value
            var finished = 0
            for await unblocked in group where unblocked { finished += 1 }
            #expect(finished == blockedRuns)
        }
    }

    @Test("the work keeps its task's values and its child tasks run beside it")
    func keepsTaskContext() async throws {
        let sum = try await DedicatedThread.run {
            try #require(Test.current != nil)
            async let first = 20
            async let second = 22
            return await first + second
        }
        #expect(sum == 42)
    }
}
