import ActionFlowClient
import ActionFlowModel
import Foundation

/// A review as one HTML file a browser opens from the file system: the session's name and
/// description, then each step as its picture with its caption, the narration it produced and
/// the calls it made; ←/→ and a step list move between steps; then the sequence diagram's
/// source, the findings and the security review. Nothing is fetched: the pictures are inline,
/// the style and the script are in the file, and its content policy forbids every request.
/// Printed, it gives one step a page.
public struct ReviewDeck: Sendable {
    public var recording: SessionRecording
    public var title: String
    public var description: String?
    public var drawing: SessionExport.Drawing
    private var style: StepPictures.Style { drawing.style }

    public init(recording: SessionRecording, title: String, description: String?, drawing: SessionExport.Drawing) {
        self.recording = recording
        self.title = title
        self.description = description
        self.drawing = drawing
    }

    /// The whole file.
    public var html: String {
        var out = ""
        write { out += $0 }
        return out
    }

    /// Hands the file to `output` piece by piece, a step at a time, so that a deck of thousands
    /// of steps is written in the memory of one.
    public func write(to output: (String) throws -> Void) rethrows {
        let steps = drawing.steps(of: recording, title: title)
        let total = steps.count - 1
        try output(head)
        var list = "<nav id=\"step-list\" aria-label=\"Steps\"><h2>Steps</h2><ol start=\"0\">\n"
        for (number, caption) in ([SessionSteps.startCaption] + steps.captions).enumerated() {
            list += "<li><a href=\"#step-\(number)\">\(Markup.escaped(caption))</a></li>\n"
        }
        try output(list + "</ol></nav>\n<main>\n")
        for step in steps {
            try output(section(step, steps: total))
        }
        try output("</main>\n" + review + script + "</body>\n</html>\n")
    }

    private var head: String {
        let (background, foreground) = style.theme == .dark ? ("#111", "#e5e5e5") : ("#fff", "#111")
        var out = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Review: \(Markup.escaped(title))</title>
        <style>
        body{margin:0 auto;max-width:1000px;padding:16px;background:\(background);color:\(foreground);font:15px/1.45 'DejaVu Sans',Helvetica,Arial,sans-serif}
        a{color:inherit}
        .step svg{max-width:100%;height:auto;display:block;border:1px solid #888}
        .step h2{font-size:18px}figure{margin:0}
        #step-list ol{columns:2;font-size:13px}
        #step-list a[aria-current]{font-weight:bold}
        .keys{font-size:13px;opacity:.8}
        pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:13px}
        table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #888;padding:4px;vertical-align:top;text-align:left}
        body.paged .step{display:none}body.paged .step.current{display:block}
        @media print{#step-list,.keys{display:none}body.paged .step{display:block}.step{break-after:page;page-break-after:always}}
        </style>
        </head>
        <body>
        <header>
        <h1>\(Markup.escaped(title))</h1>

        """
        if let description, !description.isEmpty {
            out += UntrustedText.sanitizeLines(description.trimmingCharacters(in: .whitespacesAndNewlines)).map { "<p class=\"description\">\(Markup.escaped($0))</p>\n" }.joined()
        }
        out += "<p class=\"keys\">← and → move between the steps; the list goes to any of them.</p>\n</header>\n"
        return out
    }

    private func section(_ step: SessionStep, steps: Int) -> String {
        let picture = StepPictures.svg(step, steps: steps, style: style)
        let inline = picture.drop { $0 != "\n" }.dropFirst()
        var out = "<section class=\"step\" id=\"step-\(step.number)\">\n<h2>\(Markup.escaped(StepPictures.title(of: step, steps: steps)))</h2>\n<figure>\n\(inline)</figure>\n"
        let narration = ReviewReport.narrationItems(step.narration).map { $0.map(Markup.escaped).joined(separator: "<br>") }
        out += list("Narration", narration, empty: step.number == 0 ? nil : "The step said nothing.")
        out += list("Calls", step.calls.map(Markup.escaped), empty: step.number == 0 ? nil : "No backend call.")
        return out + "</section>\n"
    }

    /// `items` are markup already escaped.
    private func list(_ heading: String, _ items: [String], empty: String?) -> String {
        guard !items.isEmpty else { return empty.map { "<p class=\"\(heading.lowercased())\">\($0)</p>\n" } ?? "" }
        return "<h3>\(heading)</h3>\n<ul class=\"\(heading.lowercased())\">\n" + items.map { "<li>\($0)</li>\n" }.joined() + "</ul>\n"
    }

    /// The sequence diagram's source, the findings and the security review, as the Markdown report has them.
    private var review: String {
        let report = ReviewReport(title: title, session: recording.current)
        var out = "<section id=\"diagram\">\n<h2>Sequence diagram (Mermaid)</h2>\n<pre>\(Markup.escaped(SequenceDiagram(recording.current).mermaid))</pre>\n</section>\n"
        out += "<section id=\"findings\">\n<h2>Findings</h2>\n"
        let findings = report.uniqueFindings
        out += findings.isEmpty ? "<p>None.</p>\n" : "<ul>\n" + findings.map { "<li><strong>\($0.severity.rawValue)</strong> <code>\(Markup.escaped($0.code))</code>: \(Markup.escaped($0.message))</li>\n" }.joined() + "</ul>\n"
        out += "</section>\n<section id=\"security-review\">\n<h2>Security review (OWASP ASVS 5.0)</h2>\n<table>\n<tr><th>requirement</th><th>level</th><th>asks</th><th>verdict</th><th>evidence</th></tr>\n"
        for check in SecurityReview(recording.current).checks {
            out += "<tr><td>\(check.reference)</td><td>L\(check.level)</td><td>\(Markup.escaped(check.topic))</td><td><strong>\(check.verdict.rawValue)</strong></td><td>\(Markup.escaped(check.evidence))</td></tr>\n"
        }
        return out + "</table>\n<p><em>\(Markup.escaped(SecurityReview.analogyNote))</em></p>\n</section>\n"
    }

    /// One step at a time on screen: ←/→, the list and the address's `#step-N` choose it.
    private var script: String {
        """
        <script>
        (function () {
          var steps = Array.prototype.slice.call(document.querySelectorAll('.step'));
          var links = Array.prototype.slice.call(document.querySelectorAll('#step-list a'));
          var current = 0;
          document.body.classList.add('paged');
          function show(index) {
            current = Math.max(0, Math.min(steps.length - 1, index));
            steps.forEach(function (step, i) { step.classList.toggle('current', i === current); });
            links.forEach(function (link, i) { if (i === current) { link.setAttribute('aria-current', 'step'); } else { link.removeAttribute('aria-current'); } });
          }
          function fromAddress() {
            var match = /^#step-(\\d+)$/.exec(location.hash);
            if (match) { show(parseInt(match[1], 10)); }
          }
          document.addEventListener('keydown', function (event) {
            if (event.altKey || event.ctrlKey || event.metaKey) { return; }
            if (event.key === 'ArrowRight') { show(current + 1); event.preventDefault(); }
            if (event.key === 'ArrowLeft') { show(current - 1); event.preventDefault(); }
          });
          window.addEventListener('hashchange', fromAddress);
          show(0);
          fromAddress();
        })();
        </script>

        """
    }
}
