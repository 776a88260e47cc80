// Checks the mermaid blocks of Markdown files with the real mermaid
// parser, as GitHub's and GitLab's renderers would read them: every
// ```mermaid fenced block must be accepted by mermaid.parse and be of the
// diagram type expected: xychart for charts, flowchart-v2 for a block that
// says flowchart (memory's relation graph), what viz-render --format
// markdown writes.
//
// mermaid needs a DOM even to parse, so a jsdom window is made
// globalThis.window (and its document globalThis.document) before mermaid
// is imported.
//
// Usage: node tests/mermaid/check.mjs [--modules DIR] FILE...
// DIR is where `npm ci` put node_modules (default: target/mermaid/node,
// see .ci/setup-mermaid.sh). Prints one line per block and a closing
// "N passed, N failed"; exits 1 if any failed, 2 on bad usage or a file
// without any mermaid block.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
let modules = "target/mermaid/node";
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--modules") modules = args[++i];
  else files.push(args[i]);
}
if (files.length === 0) {
  console.error("usage: check.mjs [--modules DIR] FILE...");
  process.exit(2);
}

const require = createRequire(join(resolve(modules), "package.json"));
const { JSDOM } = require("jsdom");
const dom = new JSDOM("<!DOCTYPE html><html><body></body></html>", { pretendToBeVisual: true });
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const mermaid = (await import(pathToFileURL(require.resolve("mermaid")).href)).default;
mermaid.initialize({ startOnLoad: false });

// The fenced blocks of a CommonMark document whose info string is
// `mermaid`: (line number, body).
function blocks(text) {
  const out = [];
  const lines = text.split("\n");
  let open = null;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (open === null) {
      const m = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/.exec(l);
      if (m) open = { fence: m[1], info: m[2], line: i + 1, body: [] };
    } else if (new RegExp(`^ {0,3}${open.fence[0]}{${open.fence.length},}\\s*$`).test(l)) {
      if (open.info === "mermaid") out.push({ line: open.line, body: open.body.join("\n") });
      open = null;
    } else {
      open.body.push(l);
    }
  }
  if (open && open.info === "mermaid") out.push({ line: open.line, body: open.body.join("\n"), unclosed: true });
  return out;
}

let passed = 0;
let failed = 0;
for (const file of files) {
  const found = blocks(readFileSync(file, "utf8"));
  if (found.length === 0) {
    console.log(`FAIL ${file}: no mermaid block`);
    failed++;
    continue;
  }
  for (const b of found) {
    const at = `${file}:${b.line}`;
    try {
      if (b.unclosed) throw new Error("the fence is never closed");
      const r = await mermaid.parse(b.body);
      const want = b.body.trimStart().startsWith("flowchart") ? "flowchart-v2" : "xychart";
      if (!r || r.diagramType !== want) throw new Error(`diagram type ${r && r.diagramType}`);
      console.log(`ok   ${at}`);
      passed++;
    } catch (e) {
      console.log(`FAIL ${at}: ${String(e.message || e).split("\n").join(" ")}`);
      failed++;
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
