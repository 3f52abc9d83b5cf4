// Parses Mermaid diagrams with Mermaid 11's own parser (the bundle shipped by the PyPI package
// mermaid-parser-py) and prints, for each file given, what the parser read: actors and messages
// with Mermaid's entity placeholders decoded, or the parse error.
// Usage: node mermaid_parse.js PARSER_BUNDLE DIAGRAM...
const fs = require("fs");
const parse = require(process.argv[2]);

const named = { quot: '"', lt: "<", gt: ">", amp: "&", apos: "'" };
// Mermaid keeps `#59;` as a placeholder until rendering; a renderer shows the character.
const decode = (text) =>
  (text ?? "")
    .replace(/ﬂ°°(\d+)¶ß/g, (_, code) => String.fromCodePoint(Number(code)))
    .replace(/ﬂ°(\w+)¶ß/g, (whole, name) => named[name] ?? whole);

(async () => {
  const results = [];
  for (const file of process.argv.slice(3)) {
    try {
      let parsed = await parse(fs.readFileSync(file, "utf8"));
      if (typeof parsed === "string") parsed = JSON.parse(parsed);
      const records = parsed.graph_data.state.records;
      results.push({
        file,
        graphType: parsed.graph_type,
        actors: Object.values(records.actors).map((actor) => ({ id: actor.name, label: decode(actor.description) })),
        messages: records.messages.map((message) => ({
          from: message.from ?? null,
          to: message.to ?? null,
          text: decode(message.message),
          type: message.type,
        })),
      });
    } catch (error) {
      results.push({ file, error: String(error && error.message ? error.message : error) });
    }
  }
  process.stdout.write(JSON.stringify(results));
})();
