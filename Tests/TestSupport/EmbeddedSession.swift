import ActionFlowClient
import ActionFlowModel

/// A session of the embedded world for tests that send events one at a time and read the
/// session between them: each event's effects run at once on the simulated project, as the
/// interface runs them (`SessionDriver.sendNow`).
@dynamicMemberLookup
public struct EmbeddedSession: Sendable {
    public var driver: SessionDriver

    public init(project: ProjectConfiguration, app: AppState) {
        driver = .embedded(project: project, app: app)
    }

    public init(project: ProjectConfiguration, devices: [SessionDevice]) {
        driver = .embedded(project: project, devices: devices)
    }

    public init(_ driver: SessionDriver) {
        self.driver = driver
    }

    public var session: Session { driver.session }

    /// Changes the session itself, outside any event (a test's set-up); its world stays.
    public mutating func edit<Result>(_ body: (inout Session) -> Result) -> Result {
        var recording = SessionRecording(driver)
        let result = body(&recording.current)
        driver = SessionDriver(recording, remote: nil)
        return result
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<Session, Value>) -> Value {
        driver.session[keyPath: keyPath]
    }

    /// Sends `event`; its effects have run and their replies been reduced when this returns.
    @discardableResult
    public mutating func reduce(_ event: AppEvent) -> [Effect] {
        driver.sendNow(event)
    }
}
