import ActionFlowModel
import Testing

@Suite struct UntrustedTextTests {
    @Test func escapeSequencesBecomeVisibleAndInert() {
        let hostile = "evil\u{1B}[31mred\u{1B}[0m@example.com"
        let safe = UntrustedText.sanitize(hostile)
        #expect(!safe.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(safe == "evil␛[31mred␛[0m@example.com")
    }

    @Test func bidiOverridesCannotReorderText() {
        let spoof = "user\u{202E}moc.live@example.com"
        #expect(UntrustedText.sanitize(spoof) == "user\u{FFFD}moc.live@example.com")
        #expect(UntrustedText.needsSanitizing(spoof))
        #expect(!UntrustedText.needsSanitizing("山田@例え.jp 👩‍💻"))
    }

    @Test func tabsAndNewlinesCannotMoveTheCursor() {
        #expect(UntrustedText.sanitize("a\tb\nc\rd") == "a␉b␊c␍d")
        #expect(UntrustedText.sanitizeLines("one\r\ntwo\u{1B}") == ["one", "two␛"])
    }

    /// Found by fuzzing (Fuzz/Regressions/text): every invisible format character is shown,
    /// not only the bidi controls and zero-width spaces; joiners and variation selectors stay.
    @Test func invisibleFormatCharactersAreShown() {
        for invisible in ["\u{AD}", "\u{180E}", "\u{2065}", "\u{FFF0}", "\u{1BCA0}", "\u{1D173}", "\u{E0080}", "\u{E01F0}"] {
            #expect(UntrustedText.sanitize("a\(invisible)b") == "a\u{FFFD}b", "U+\(String(invisible.unicodeScalars.first!.value, radix: 16))")
        }
        for kept in ["👩\u{200D}💻", "\u{915}\u{94D}\u{200C}", "❤\u{FE0F}", "\u{845B}\u{E0100}"] {
            #expect(!UntrustedText.needsSanitizing(kept))
        }
    }
}

@Suite struct AuthFailureTests {
    @Test func wireMessageSplitsAtTheFirstColon() {
        #expect(AuthFailure.fromWireMessage("WEAK_PASSWORD : Password should be at least 6 characters")
            == .server(.weakPassword, detail: "Password should be at least 6 characters"))
        #expect(AuthFailure.fromWireMessage("INVALID_OOB_CODE") == .server(.invalidOobCode, detail: nil))
        #expect(AuthFailure.fromWireMessage("A : b : c") == .server(AuthErrorCode("A"), detail: "b : c"))
    }
}
