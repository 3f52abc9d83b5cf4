import ActionFlowClient
import ActionFlowModel
@testable import ActionFlowTUI
import Foundation
import Testing

@Suite("Long links wrap at sensible places")
struct LinkWrappingTests {
    static let link = "https://demo-actionflow.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=4815162342108897&apiKey=fake-api-key&continueUrl=https%3A%2F%2Fwww.example.com%2Farticles%2F42%3Fref%3D2024&lang=en"

    /// Whether a line break between `before` and `after` splits a run of digits or a `%XX` escape.
    static func splitsSomething(_ before: String, _ after: String) -> Bool {
        if let last = before.last, let first = after.first, last.isNumber, first.isNumber { return true }
        let tail = String(before.suffix(2))
        return tail.hasSuffix("%") || (tail.first == "%" && tail.last?.isHexDigit == true)
    }

    @Test("at every width the code's digits fit in, a link's lines hold it whole and fit, and no break splits digits or a %XX escape", arguments: 16...100)
    func neverInsideNumbersOrEscapes(_ width: Int) {
        let lines = TextWrap.hardLines(Self.link, width: width)
        #expect(lines.joined() == Self.link)
        #expect(lines.allSatisfy { $0.count <= width && !$0.isEmpty })
        for (before, after) in zip(lines, lines.dropFirst()) {
            #expect(!Self.splitsSomething(before, after), "width \(width): \(before) | \(after)")
        }
    }

    @Test("lines end after /, ?, &, = or a %XX escape when one is near the end of the line")
    func afterSeparators() {
        #expect(TextWrap.hardLines(Self.link, width: 48) == [
            "https://demo-actionflow.firebaseapp.com/__/auth/",
            "action?mode=resetPassword&oobCode=",
            "4815162342108897&apiKey=fake-api-key&",
            "continueUrl=https%3A%2F%2Fwww.example.com%2F",
            "articles%2F42%3Fref%3D2024&lang=en",
        ])
        #expect(TextWrap.hardLines("https://x.y/z", width: 5) == ["https", "://", "x.y/z"])
    }

    @Test("a run of digits longer than a line is cut only because it has to be")
    func longNumber() {
        #expect(TextWrap.hardLines("code=12345678901234", width: 8) == ["code=", "12345678", "901234"])
    }

    @Test("a link inside narration wraps the same way")
    func inNarration() {
        let lines = TextWrap.lines("tap the link " + Self.link + " in the mail", width: 40)
        for (before, after) in zip(lines, lines.dropFirst()) {
            #expect(!Self.splitsSomething(before, after), "\(before) | \(after)")
        }
        #expect(lines.joined(separator: " ").replacingOccurrences(of: " ", with: "") == ("tap the link " + Self.link + " in the mail").replacingOccurrences(of: " ", with: ""))
    }
}

@Suite("The email's link where the email has it")
struct MailLinkPlacementTests {
    func resetMessageOpened() async throws -> Session {
        let world = try await World.start()
        await world.send(.openRoute("/articles/42"), .forgotPasswordTapped)
        let sent = await world.send(.passwordResetRequested(email: "alice@example.com"), .mailboxOpened)
        return await world.send(.messageOpened(id: sent.inbox.last?.id ?? ""))
    }

    @Test("the phone's mail view shows the link before the signature, as the email does")
    func phone() async throws {
        let session = try await resetMessageOpened()
        let frame = render(session, mainUI(), large).text.split(separator: "\n").map(String.init)
        // The phone's column only: the panes beside it narrate the link too.
        let phoneWidth = try #require(frame[1].firstIndex(of: "╮").map { frame[1].distance(from: frame[1].startIndex, to: $0) + 1 })
        let rows = frame.map { String($0.prefix(phoneWidth)) }
        let link = try #require(rows.firstIndex { $0.contains("https://") })
        let ignore = try #require(rows.firstIndex { $0.contains("If you didn't ask") })
        let thanks = try #require(rows.firstIndex { $0.contains("Thanks,") })
        let follow = try #require(rows.firstIndex { $0.contains("Follow this link") })
        #expect(follow < link && link < ignore && ignore < thanks, "\(rows.joined(separator: "\n"))")
    }

    @Test("the Mailbox pane draws the link as a link, in its place in the body")
    func mailboxPane() async throws {
        let session = try await resetMessageOpened()
        let message = try #require(session.inbox.last)
        let blocks = InspectorContent.blocks(.mailbox, session, mainUI(focus: .inspector, tab: .mailbox))
        let link = try #require(blocks.firstIndex { if case .verbatim(message.link, .link, _) = $0 { true } else { false } })
        let thanks = try #require(blocks.firstIndex { if case .paragraph(let text, _) = $0 { text.contains("Thanks,") } else { false } })
        #expect(link < thanks)
        #expect(!blocks.contains { if case .paragraph(let text, _) = $0 { text.contains("https://") } else { false } })
    }
}
