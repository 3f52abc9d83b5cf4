import ActionFlowModel
import Testing

@Suite("Finding and replacing text")
struct TextOccurrencesTests {
    @Test("Replaces what the standard library's replacing(_:with:) replaces, where marks do not join the target")
    func sameAsStandardLibrary() {
        let cases: [(text: String, target: String, replacement: String)] = [
            ("", "|", "\\|"), ("a|b|c", "|", "\\|"), ("||", "|", "\\|"), ("aaa", "aa", "b"),
            ("line\r\nnext\nlast", "\r\n", " "), ("no match here", "xyz", "-"), ("POST /v1/accounts:lookup", "POST /v1/", ""),
            ("é|ü|👩‍💻", "|", "/"), ("ab-cd_ef", "-", "+"), ("abab", "ab", "abab"), ("tail|", "|", "!"),
        ]
        for (text, target, replacement) in cases {
            #expect(text.replacingEvery(target, with: replacement) == text.replacing(target, with: replacement), "\(text.debugDescription)")
            #expect(text.firstOccurrence(of: target) == text.firstRange(of: target), "\(text.debugDescription)")
        }
    }

    @Test("A combining mark after the target does not hide it: a table cell's pipe is still escaped, a secret's name still found")
    func markAfterTarget() {
        let text = "a|\u{301}b"
        #expect(text.replacingEvery("|", with: "\\|") == "a\\|\u{301}b")
        let query = "oobCode=\u{301}secret&x=1"
        let range = try! #require(query.firstOccurrence(of: "oobCode="))
        #expect(String(query[range.upperBound...]) == "\u{301}secret&x=1")
    }

    @Test("Searches a substring within its own bounds, and an empty target matches at the start without replacing")
    func substringsAndEmptyTargets() {
        let text = "x=1&oobCode=a&oobCode=b"
        // The substring starts inside the first name, so the second is the first it holds.
        let rest = text[text.index(text.startIndex, offsetBy: 5)...]
        let range = try! #require(rest.firstOccurrence(of: "oobCode="))
        #expect(text[range.upperBound...] == "b")
        #expect(text.firstOccurrence(of: "oobCode=").map { String(text[$0.upperBound...]) } == "a&oobCode=b")
        #expect("abc".firstOccurrence(of: "") == "abc".startIndex..<"abc".startIndex)
        #expect("abc".replacingEvery("", with: "-") == "abc")
        #expect("abc".firstOccurrence(of: "abcd") == nil)
    }
}
