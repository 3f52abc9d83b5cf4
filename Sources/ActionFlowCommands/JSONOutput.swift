import ActionFlowModel
import Foundation

/// JSON for the headless commands: pretty, sorted keys, and safe on a terminal without changing
/// any value: characters `UntrustedText` would replace (bidi overrides, C1 controls...) are
/// written as `\u` escapes, which JSON readers decode back.
enum JSONOutput {
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // The commands encode strings, numbers, booleans and arrays only: this cannot fail.
        guard let data = try? encoder.encode(value) else { return "{}" }
        return escapingUnsafeCharacters(String(decoding: data, as: UTF8.self))
    }

    static func escapingUnsafeCharacters(_ json: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            // JSONEncoder already escapes C0 controls inside strings; raw line feeds are layout.
            guard scalar != "\n", UntrustedText.needsSanitizing(String(scalar)) else {
                out.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                out.append(contentsOf: PrintfFormat.string("\\u%04x", unit).unicodeScalars)
            }
        }
        return String(out)
    }
}
