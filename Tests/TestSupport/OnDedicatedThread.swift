import ActionFlowLoad
import Testing

/// Runs each test of a suite on a thread of its own (`DedicatedThread`). For tests that block
/// while they wait for a terminal or a child process: on the cooperative pool they would stall
/// the tests that run beside them, such as `serve`'s, whose server shares that pool.
public struct OnDedicatedThread: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await DedicatedThread.run { try await function() }
    }
}

extension Trait where Self == OnDedicatedThread {
    /// See `OnDedicatedThread`.
    public static var onDedicatedThread: Self { Self() }
}
