import ActionFlowModel
import Testing

@Suite struct RoutingMatrixTests {
    let project = Fixtures.project()

    func row(_ matrix: RoutingMatrix, _ platform: Device.Platform, installed: Bool = true, version: RoutingMatrix.Condition.AppVersion? = nil,
             verified: Bool? = true, mail: Device.MailClient? = .native) -> RoutingMatrix.Row? {
        matrix.rows.first {
            $0.condition == RoutingMatrix.Condition(platform: platform, appInstalled: installed, appVersion: installed ? version : nil,
                                                    linksVerified: installed ? verified : nil, mailClient: installed ? mail : nil)
        }
    }

    @Test func everyConditionOnceAndOnlyThoseThatApply() {
        let settings = Fixtures.articleSettings
        let matrix = RoutingMatrix.build(link: Fixtures.emailLink(settings), project: project, requested: settings)
        // iOS: 2 verified x 2 mail + missing; Android: 2 versions x 2 x 2 + missing; desktop once.
        #expect(matrix.rows.count == 5 + 9 + 1)
        #expect(Set(matrix.rows.map(\.condition)).count == matrix.rows.count)
        var noMinimum = settings
        noMinimum.androidMinimumVersion = nil
        #expect(RoutingMatrix.build(link: Fixtures.emailLink(noMinimum), project: project, requested: noMinimum).rows.count == 5 + 5 + 1)
    }

    @Test func inAppLinkLandings() throws {
        let settings = Fixtures.articleSettings
        let link = Fixtures.emailLink(settings)
        let actionURL = try LinkInspector.inspect(link).actionURL
        let matrix = RoutingMatrix.build(link: link, project: project, requested: settings)
        #expect(row(matrix, .iOS)?.tap.destination == .app(url: actionURL))
        #expect(row(matrix, .iOS, mail: .webmailInAppBrowser)?.tap.destination == .webWidget(actionURL: actionURL))
        #expect(row(matrix, .android, version: .current)?.tap.destination == .app(url: actionURL))
        #expect(row(matrix, .android, version: .tooOld)?.tap.destination.summary == "Play Store (upgrade), then app")
        #expect(row(matrix, .android, installed: false)?.tap.destination.summary == "Play Store (install), then app")
        #expect(row(matrix, .desktop, installed: false)?.tap.destination == .webWidget(actionURL: actionURL))
        #expect(matrix.rows.allSatisfy { $0.afterContinue == nil || $0.tap.destination.summary == "web widget" })
        #expect(!matrix.assumptions.isEmpty && matrix.assumptions.allSatisfy { $0.hasPrefix("assumed") })
    }

    @Test func webWidgetLinksShowWhereContinueLeads() {
        var settings = Fixtures.articleSettings
        settings.handleCodeInApp = false
        let matrix = RoutingMatrix.build(link: Fixtures.emailLink(settings), project: project, requested: settings)
        #expect(matrix.rows.allSatisfy { $0.tap.destination.summary == "web widget" })
        #expect(row(matrix, .iOS)?.afterContinue?.destination == .app(url: "https://www.example.com/articles/42"))
        #expect(row(matrix, .iOS, verified: false)?.afterContinue?.destination == .browser(url: "https://www.example.com/articles/42"))
        #expect(row(matrix, .desktop, installed: false)?.afterContinue?.destination == .browser(url: "https://www.example.com/articles/42"))
    }
}

@Suite struct PercentDecodingTests {
    @Test(arguments: [
        ("a%20b", "a b"), ("a+b", "a b"), ("%E5%B1%B1", "山"), ("plain", "plain"), ("100%25", "100%"), ("", ""),
    ])
    func decodes(encoded: String, decoded: String) {
        #expect(PercentEncoding.decode(encoded, plusAsSpace: true) == decoded)
    }

    @Test(arguments: ["%", "%4", "%G0", "abc%zz", "%C3%28", "%FF", "%F0%9F%98"])
    func malformedOrNotUTF8IsNil(encoded: String) {
        #expect(PercentEncoding.decode(encoded) == nil)
    }

    @Test func plusStaysWithoutFormDecoding() {
        #expect(PercentEncoding.decode("a+b") == "a+b")
    }
}
