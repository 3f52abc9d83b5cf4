import CHTTPEngine
import ActionFlowModel
import Foundation

/// The REST transport's HTTP client: URLSession, in `libActionFlowHTTPEngine.so` beside the
/// executable, loaded on first use. Linked into the program, FoundationNetworking would load
/// libcurl and some thirty libraries on every start (~10 ms) that the embedded default never uses.
struct HTTPEngine: @unchecked Sendable {
    static let libraryName = "libActionFlowHTTPEngine.so"

    /// Loaded once per process.
    static let shared: Result<HTTPEngine, HTTPEngineUnavailable> = load()

    let createSession: actionflow_http_session_create_function
    let releaseSession: actionflow_http_session_release_function
    let exchange: actionflow_http_exchange_function
    let cancel: actionflow_http_exchange_cancel_function
    let release: actionflow_http_exchange_release_function

    private static func load() -> Result<HTTPEngine, HTTPEngineUnavailable> {
        // Beside the running executable (a test runner's, under `swift test`).
        let folder = ProgramLocation.folder?.path ?? "."
        let path = folder + "/" + libraryName
        guard let library = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "cannot be loaded"
            return .failure(HTTPEngineUnavailable(path: path, reason: reason))
        }
        func symbol<Function>(_ name: String, as type: Function.Type) -> Function? {
            dlsym(library, name).map { unsafeBitCast($0, to: type) }
        }
        guard let createSession = symbol("actionflow_http_session_create", as: actionflow_http_session_create_function.self),
              let releaseSession = symbol("actionflow_http_session_release", as: actionflow_http_session_release_function.self),
              let exchange = symbol("actionflow_http_exchange", as: actionflow_http_exchange_function.self),
              let cancel = symbol("actionflow_http_exchange_cancel", as: actionflow_http_exchange_cancel_function.self),
              let release = symbol("actionflow_http_exchange_release", as: actionflow_http_exchange_release_function.self) else {
            return .failure(HTTPEngineUnavailable(path: path, reason: "it lacks the actionflow_http_* functions (a library from another build?)"))
        }
        return .success(HTTPEngine(createSession: createSession, releaseSession: releaseSession, exchange: exchange, cancel: cancel, release: release))
    }
}

/// The HTTP engine library is missing or unusable: the REST transport cannot run.
public struct HTTPEngineUnavailable: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String {
        "the REST transport's HTTP engine \(path) is not usable (\(reason)); `swift build` builds it beside the program (`swift build -c release` for a release build)"
    }
}

/// One URLSession of the engine: exchanges run concurrently and can be cancelled.
final class HTTPEngineSession: @unchecked Sendable {
    struct Reply: Sendable {
        var status: Int
        var body: Data
    }

    /// No HTTP reply: why, and the engine's own words (untrusted text).
    struct Failure: Error, Sendable {
        var outcome: actionflow_http_outcome
        var message: String
    }

    private let engine: HTTPEngine
    private let session: UnsafeMutableRawPointer

    init(backstopSeconds: Double) throws(HTTPEngineUnavailable) {
        engine = try HTTPEngine.shared.get()
        guard let session = engine.createSession(backstopSeconds) else {
            throw HTTPEngineUnavailable(path: HTTPEngine.libraryName, reason: "it could not create a URLSession")
        }
        self.session = session
    }

    deinit {
        engine.releaseSession(session)
    }

    /// One request and its reply; cancelling the task cancels the request.
    func exchange(method: String, url: String, headers: [String: String], body: Data?) async throws(Failure) -> Reply {
        let headerLines = headers.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
        let running = RunningExchange(engine: engine)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                running.begin(continuation)
                let context = Unmanaged.passRetained(running).toOpaque()
                let handle = withOptionalBytes(body) { bytes, count in
                    engine.exchange(session, method, url, headerLines, bytes, count, context) { context, outcome, status, body, count, message in
                        let running = Unmanaged<RunningExchange>.fromOpaque(context!).takeRetainedValue()
                        if outcome == .answered {
                            running.finish(.success(Reply(status: Int(status), body: body.map { Data(bytes: $0, count: count) } ?? Data())))
                        } else {
                            running.finish(.failure(Failure(outcome: outcome, message: message.map { String(cString: $0) } ?? "")))
                        }
                    }
                }
                running.started(handle)
            }
        } onCancel: {
            running.cancel()
        }
        return try result.get()
    }

    private func withOptionalBytes<Result>(_ data: Data?, _ body: (UnsafePointer<UInt8>?, Int) -> Result) -> Result {
        guard let data else { return body(nil, -1) }
        return data.withUnsafeBytes { body($0.bindMemory(to: UInt8.self).baseAddress, $0.count) }
    }
}

/// An exchange between its start and its reply; the engine's handle, released once both the
/// start has returned it and the reply has come (in either order).
private final class RunningExchange: @unchecked Sendable {
    private let engine: HTTPEngine
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result<HTTPEngineSession.Reply, HTTPEngineSession.Failure>, Never>?
    private var handle: UnsafeMutableRawPointer?
    private var finished = false
    private var cancelled = false

    init(engine: HTTPEngine) {
        self.engine = engine
    }

    func begin(_ continuation: CheckedContinuation<Result<HTTPEngineSession.Reply, HTTPEngineSession.Failure>, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    func started(_ handle: UnsafeMutableRawPointer?) {
        guard let handle else { return }
        lock.withLock {
            if finished {
                engine.release(handle)
            } else {
                self.handle = handle
                if cancelled { engine.cancel(handle) }
            }
        }
    }

    func cancel() {
        lock.withLock {
            cancelled = true
            if let handle, !finished { engine.cancel(handle) }
        }
    }

    func finish(_ result: Result<HTTPEngineSession.Reply, HTTPEngineSession.Failure>) {
        let continuation = lock.withLock {
            finished = true
            if let handle { engine.release(handle) }
            handle = nil
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(returning: result)
    }
}
