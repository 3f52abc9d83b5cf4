/// `inspect --jsonl`'s objects, laid out by hand on the writer's primitives: going through
/// `Encodable` cost more than inspecting the link. Writes exactly what
/// `JSONWriter.string(anatomy, format: .commandLine)` writes (the tests compare them byte for
/// byte). In this module, with the writer, so that the primitives are inlined.
extension JSONWriter {
    /// The object `inspect --json` prints for a link, on one line.
    public mutating func anatomy(_ anatomy: LinkAnatomy) {
        raw("{")
        key("actionURL", first: true)
        string(anatomy.actionURL)
        key("apiKey")
        optionalString(anatomy.apiKey)
        key("continueLink")
        if let link = anatomy.continueLink {
            raw("{")
            key("destination", first: true)
            string(link.destination)
            key("layers")
            array(link.layers) { $0.layer($1) }
            raw("}")
        } else {
            null()
        }
        key("continueUrl")
        optionalString(anatomy.continueUrl)
        key("continueUrlAuthorized")
        optionalBool(anatomy.continueUrlAuthorized)
        key("findings")
        array(anatomy.findings) { writer, finding in
            writer.raw("{")
            writer.key("code", first: true)
            writer.string(finding.code)
            writer.key("message")
            writer.string(finding.message)
            writer.key("severity")
            writer.string(finding.severity.rawValue)
            writer.raw("}")
        }
        key("lang")
        optionalString(anatomy.lang)
        key("layers")
        array(anatomy.layers) { $0.layer($1) }
        key("link")
        string(anatomy.link)
        key("mode")
        optionalString(anatomy.mode)
        key("oobCode")
        optionalString(anatomy.oobCode)
        key("operation")
        string(anatomy.operation.rawValue)
        key("tenantId")
        optionalString(anatomy.tenantId)
        raw("}")
    }

    mutating func layer(_ layer: LinkLayer) {
        raw("{")
        key("host", first: true)
        string(layer.host)
        key("kind")
        string(layer.kind.rawValue)
        key("parameters")
        array(layer.parameters) { writer, parameter in
            writer.raw("{")
            writer.key("meaning", first: true)
            if let meaning = parameter.knownMeaning { writer.quotedRaw(meaning) } else { writer.null() }
            writer.key("name")
            writer.string(parameter.name)
            writer.key("value")
            writer.string(parameter.value)
            writer.raw("}")
        }
        key("url")
        string(layer.url)
        raw("}")
    }

    /// `{"error": ..., "line": N}` for an input line that is no link.
    public mutating func lineError(_ message: String, line: Int) {
        raw("{")
        key("error", first: true)
        string(message)
        key("line")
        integer(line)
        raw("}")
    }
}
