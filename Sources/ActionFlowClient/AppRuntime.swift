import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import Foundation

/// Owns the app state and a transport: reduces events, runs their effects one after another
/// (so runs repeat exactly), and feeds each reply back as an event.
public actor AppRuntime {
    /// Restarts the world with another project (embedded transports); returns the new clock time.
    public typealias Reconfigure = @Sendable (ProjectConfiguration) async throws(AuthFailure) -> Date?
    /// The recorded exchanges so far (latest slice) and their total count.
    public typealias ExchangeSource = @Sendable () async -> (records: [ExchangeRecord], total: Int)

    public private(set) var state: AppState
    public nonisolated let transport: any AuthTransport
    private let reconfigure: Reconfigure?
    private let exchangeSource: ExchangeSource?
    private var queue: [Effect] = []
    private var isDraining = false
    private var worker: Task<Void, Never>?
    private var observers: [UUID: AsyncStream<AppState>.Continuation] = [:]

    public init(state: AppState, transport: any AuthTransport, reconfigure: Reconfigure? = nil, exchanges: ExchangeSource? = nil) {
        self.state = state
        self.transport = transport
        self.reconfigure = reconfigure
        self.exchangeSource = exchanges
    }

    /// Reduces the event now and starts running its effects in the background (for a UI).
    public func send(_ event: AppEvent) {
        apply(event)
        if worker == nil, !isDraining, !queue.isEmpty {
            worker = Task { await self.runWorker() }
        }
    }

    /// Reduces the event and runs every effect it causes before returning (for headless runs).
    public func process(_ event: AppEvent) async {
        apply(event)
        await settle()
    }

    /// Waits until every effect has run and its reply has been reduced.
    public func settle() async {
        while true {
            if let worker {
                await worker.value
                continue
            }
            if isDraining {
                await Task.yield()
                continue
            }
            if queue.isEmpty { return }
            await drain()
        }
    }

    /// Every new state, starting with the current one. A slow reader skips to the newest, as a
    /// UI that redraws only the latest state wants.
    public func updates() -> AsyncStream<AppState> {
        let (stream, continuation) = AsyncStream.makeStream(of: AppState.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        observers[id] = continuation
        continuation.yield(state)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        return stream
    }

    private func removeObserver(_ id: UUID) {
        observers[id] = nil
    }

    private func apply(_ event: AppEvent) {
        queue += AppReducer.reduce(&state, event)
        for observer in observers.values { observer.yield(state) }
    }

    private func runWorker() async {
        await drain()
        worker = nil
    }

    private func drain() async {
        isDraining = true
        defer { isDraining = false }
        while !queue.isEmpty {
            let effect = queue.removeFirst()
            apply(await perform(effect))
            if let exchangeSource, case .call = effect {
                let (records, total) = await exchangeSource()
                apply(.exchangesUpdated(records, total: total))
            }
        }
    }

    private func perform(_ effect: Effect) async -> AppEvent {
        do throws(AuthFailure) {
            switch effect {
            case .call(let call, let caller):
                do throws(AuthFailure) {
                    return .callSucceeded(call, by: caller, try await Self.perform(call, on: transport))
                } catch {
                    return .callFailed(call, by: caller, error)
                }
            case .refreshMailbox:
                return .mailboxRefreshed(try await transport.mailbox())
            case .advanceClock(let seconds):
                return .clockAdvanced(try await transport.advanceClock(by: seconds))
            case .resetWorld:
                try await transport.resetWorld()
                return .worldReset(now: try? await transport.now())
            case .applyProject(let project):
                guard let reconfigure else {
                    throw AuthFailure.network(.unsupported("\(transport.summary) cannot change its project"))
                }
                return .worldReset(now: try await reconfigure(project))
            }
        } catch {
            return .serviceFailed(effect, error)
        }
    }

    /// Runs one Identity Toolkit call.
    public static func perform(_ call: AuthCall, on transport: any AuthTransport) async throws(AuthFailure) -> AuthReply {
        switch call {
        case .signInWithPassword(let request): .signedIn(try await transport.signInWithPassword(request))
        case .sendOobCode(let request, let locale): .oobCodeSent(try await transport.sendOobCode(request, locale: locale))
        case .resetPassword(let request): .passwordReset(try await transport.resetPassword(request))
        case .update(let request): .updated(try await transport.update(request))
        case .lookup(let request): .lookedUp(try await transport.lookup(request))
        case .signInWithEmailLink(let request): .signedIn(try await transport.signInWithEmailLink(request))
        }
    }
}

extension AppRuntime {
    /// The exchanges a recording transport has kept, for `exchanges:`. The total is the newest
    /// record's id: the calls since the recorder was last cleared, beyond what it keeps.
    public static func exchanges(of recorder: RecordingTransport) -> ExchangeSource {
        { [recorder] in
            let records = recorder.records()
            return (Array(records.suffix(AppState.exchangeWindow)), records.last?.id ?? 0)
        }
    }

    /// Project changes for an embedded transport, for `reconfigure:`: the world restarts with
    /// the new configuration (users, codes, mailbox and clock), and `recorder`, when given,
    /// forgets the old world's exchanges.
    public static func reconfiguring(_ embedded: EmbeddedTransport, clearing recorder: RecordingTransport? = nil) -> Reconfigure {
        { [embedded, recorder] (project: ProjectConfiguration) throws(AuthFailure) -> Date? in
            let now = try embedded.withProject { (simulated: inout SimulatedProject) throws(AuthFailure) -> Date? in
                simulated = SimulatedProject(configuration: project)
                return simulated.now
            }
            recorder?.clear()
            return now
        }
    }
}
