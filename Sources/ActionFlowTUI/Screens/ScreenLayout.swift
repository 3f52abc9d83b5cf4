import ActionFlowClient

/// Where everything goes for a terminal size. Shared by drawing and by mouse hit-testing.
public struct ScreenLayout: Sendable {
    public static let minimumWidth = 80
    public static let minimumHeight = 24

    /// From this width two devices stand side by side; narrower terminals show the one in focus.
    public static let sideBySideWidth = 130

    public let width: Int
    public let height: Int
    public let header: Rect
    /// The device in focus.
    public let phone: Rect
    /// The other device, when two stand side by side (the first device always on the left).
    public let otherPhone: Rect?
    public let inspector: Rect
    public let status: Rect
    public let hints: Rect

    public init(width: Int, height: Int, devices: Int = 1, focusedDevice: Int = 0) {
        self.width = width
        self.height = height
        header = Rect(x: 0, y: 0, width: width, height: 1)
        status = Rect(x: 0, y: height - 2, width: width, height: 1)
        hints = Rect(x: 0, y: height - 1, width: width, height: 1)
        let body = Rect(x: 0, y: 1, width: width, height: height - 3)
        if devices > 1, width >= Self.sideBySideWidth {
            let phoneWidth = width >= 180 ? 46 : 38
            let first = body.splitColumns(phoneWidth)
            let second = first.right.splitColumns(phoneWidth)
            let rects = [first.left, second.left]
            phone = rects[focusedDevice == 1 ? 1 : 0]
            otherPhone = rects[focusedDevice == 1 ? 0 : 1]
            inspector = second.right
        } else {
            let phoneWidth = width >= 150 ? 46 : (width >= 100 ? 38 : 34)
            let split = body.splitColumns(phoneWidth)
            phone = split.left
            otherPhone = nil
            inspector = split.right
        }
    }

    /// The layout for this session's devices.
    public init(width: Int, height: Int, session: Session) {
        self.init(width: width, height: height, devices: session.devices.count, focusedDevice: session.focus)
    }

    public var isTooSmall: Bool { width < Self.minimumWidth || height < Self.minimumHeight }

    /// The phone's screen, between the bar and the dock.
    public var phoneContent: Rect { Self.content(of: phone) }

    static func bar(of phone: Rect) -> Rect { Rect(x: phone.x + 2, y: phone.y + 1, width: phone.width - 4, height: 1) }
    static func content(of phone: Rect) -> Rect { Rect(x: phone.x + 2, y: phone.y + 3, width: phone.width - 4, height: phone.height - 6) }
    static func dock(of phone: Rect) -> Rect { Rect(x: phone.x + 2, y: phone.maxY - 2, width: phone.width - 4, height: 1) }
    public var tabBar: Rect { Rect(x: inspector.x + 2, y: inspector.y + 1, width: inspector.width - 4, height: 1) }
    public var inspectorContent: Rect { Rect(x: inspector.x + 2, y: inspector.y + 3, width: inspector.width - 4, height: inspector.height - 4) }

    /// Each tab's label and where it is drawn: full labels when they fit, else short ones, else
    /// short ones closer together.
    public var tabs: [(tab: InspectorTab, label: String, rect: Rect)] {
        let full = InspectorTab.allCases.map { " \($0.title) " }
        let short = InspectorTab.allCases.map { " \($0.shortTitle) " }
        func width(_ labels: [String]) -> Int { labels.reduce(0) { $0 + $1.displayWidth } }
        let (labels, gap): ([String], Int) = width(full) <= tabBar.width ? (full, 0)
            : width(short) <= tabBar.width ? (short, 0)
            : (InspectorTab.allCases.map(\.shortTitle), 1)
        var x = tabBar.x
        return InspectorTab.allCases.map { tab in
            let label = labels[tab.rawValue]
            let rect = Rect(x: x, y: tabBar.y, width: label.displayWidth, height: 1)
            x += rect.width + gap
            return (tab, label, rect)
        }
    }
}
