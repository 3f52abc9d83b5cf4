import Foundation

/// A thread of its own for a task's code that blocks: waiting on a socket, a child process or a
/// terminal. Swift's cooperative pool has one thread per core; blocking one of them (two on a
/// small machine) stalls every other task, a server under test among them.
///
/// It is a task executor: the task keeps its task-local values (a test's issue reporting among
/// them), and child tasks it starts run here too. Unstructured tasks it starts do not.
public final class DedicatedThread: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    private init() {}

    /// Runs `work` on a new thread, which ends when `work` does.
    public static func run<Result, Failure: Error>(_ work: () async throws(Failure) -> Result) async throws(Failure) -> Result {
        let executor = DedicatedThread()
        let thread = Thread { executor.runJobs() }
        thread.name = "actionflow-dedicated"
        thread.start()
        defer { executor.finish() }
        return try await withTaskExecutorPreference(executor, operation: work)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        defer { condition.unlock() }
        if finished {
            // Late work (a task resumed after `run` returned) gets a thread of its own.
            Thread { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }.start()
            return
        }
        jobs.append(job)
        condition.signal()
    }

    private func runJobs() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }

    private func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }
}
