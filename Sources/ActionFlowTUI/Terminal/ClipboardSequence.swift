import Foundation

/// xterm's OSC 52 "set selection": `ESC ] 52 ; c ; BASE64 ESC \` puts the decoded text on the
/// clipboard (`c`). Base64 keeps every byte of the text out of the terminal's parser.
public enum ClipboardSequence {
    static let introducer = "\u{1B}]52;c;"
    static let terminator = "\u{1B}\\"

    public static func osc52(_ text: String) -> String {
        introducer + Data(text.utf8).base64EncodedString() + terminator
    }
}
