import ActionFlowModel
import Foundation

/// What the app (or a browser) reads out of a link it receives.
struct LinkFacts: Sendable, Hashable {
    var operation: ActionCodeOperation?
    var oobCode: String?
    var continueURL: String?
    /// The innermost URL once every wrapper is removed: the action URL, or the continue URL
    /// a Continue button's mobile link carries.
    var innermostURL: String
}

/// Where a tapped link takes the device, and why.
enum TapDestination: Sendable, Hashable {
    case app(url: String)
    case store(StorePage)
    case webWidget(actionURL: String)
    case browser(url: String)
}

struct TapOutcome: Sendable, Hashable {
    var destination: TapDestination
    var explanation: [String]
}

enum LinkHandling {
    static func facts(of link: String) -> LinkFacts {
        var current = link
        // Unwrap `link=` / `deep_link_id=` wrappers (Hosting and Dynamic Links).
        for _ in 0..<4 {
            guard let items = URLComponents(string: current)?.queryItems,
                  let inner = items.first(where: { $0.name == "link" || $0.name == "deep_link_id" })?.value else { break }
            current = inner
        }
        let items = URLComponents(string: current)?.queryItems ?? []
        let value = { (name: String) in items.first(where: { $0.name == name })?.value }
        return LinkFacts(
            operation: value("mode").map(ActionCodeOperation.init(mode:)),
            oobCode: value("oobCode"),
            continueURL: value("continueUrl"),
            innermostURL: current
        )
    }

    static func route(_ link: String, state: AppState) -> TapOutcome {
        let facts = facts(of: link)
        let device = state.device
        if device.platform != .desktop, device.appInstalled, device.linksVerified, device.mailClient == .native, link != facts.innermostURL {
            return TapOutcome(destination: .app(url: link), explanation: ["\(device.osName): app installed, links verified → app"])
        }
        if facts.operation != nil {
            return TapOutcome(destination: .webWidget(actionURL: facts.innermostURL), explanation: ["\(device.osName): no app for this link → web widget"])
        }
        return TapOutcome(destination: .browser(url: facts.innermostURL), explanation: ["\(device.osName): → browser"])
    }
}
