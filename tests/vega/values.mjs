// Runs Vega-Lite specs as a browser would (the vega-lite compiler, then
// vega's headless View) and prints, for each, the rows its first mark
// draws: the data Vega computed with the spec's own transforms. A test
// compares them with the points viz-parse computed.
//
// Usage: node tests/vega/values.mjs [--modules DIR] FILE
// FILE holds Vega-Lite specs, one JSON document per line. Prints one JSON
// line per spec: an array of rows, each {label, value, series?,
// label_end?} as the mark's data has them (dates as milliseconds since
// the epoch). Exits 1 on any error.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const args = process.argv.slice(2);
let modules = "target/vega/node";
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--modules") modules = args[++i];
  else files.push(args[i]);
}
const require = createRequire(join(resolve(modules), "package.json"));
const vl = require("vega-lite");
const vega = require("vega");

// The data set the first mark of a compiled spec reads.
function markData(marks) {
  for (const m of marks || []) {
    // A faceted group (one line per series) reads its data set whole.
    if (m.from && m.from.facet) return m.from.facet.data;
    if (m.from && m.from.data) return m.from.data;
    const inner = markData(m.marks);
    if (inner) return inner;
  }
  return null;
}

function plain(v) {
  return v instanceof Date ? v.getTime() : v;
}

for (const file of files) {
  for (const line of readFileSync(file, "utf8").split("\n").filter((l) => l.trim())) {
    const compiled = vl.compile(JSON.parse(line)).spec;
    const view = new vega.View(vega.parse(compiled), { renderer: "none" });
    await view.runAsync();
    const name = markData(compiled.marks);
    const rows = view.data(name).map((d) => {
      const row = { label: plain(d.label), value: plain(d.value) };
      if (d.series !== undefined) row.series = d.series;
      if (d.label_end !== undefined) row.label_end = plain(d.label_end);
      return row;
    });
    view.finalize();
    console.log(JSON.stringify(rows));
  }
}
