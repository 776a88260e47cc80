// Checks Vega-Lite specs with the real Vega tools, as a browser or vl2svg
// would use them: each spec must
//   1. validate against the official Vega-Lite v5 JSON schema (the one the
//      vega-lite package ships, build/vega-lite-schema.json) with ajv;
//   2. compile with vega-lite without a warning (a warning means an
//      encoding was dropped or a channel ignored: the chart is not what
//      the spec says);
//   3. render to SVG with vega's headless View without an error or a
//      warning, and draw at least one mark.
//
// Usage: node tests/vega/check.mjs [--modules DIR] [--svg-dir DIR] FILE...
// Each FILE holds Vega-Lite specs, one JSON document per line (the output
// of `viz-render --format vega-lite`). DIR is where `npm ci` put
// node_modules (default: target/vega/node, see .ci/setup-vega.sh).
// Prints one line per spec and a closing "N passed, N failed"; exits 1 if
// any failed.
import { createRequire } from "node:module";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";

const args = process.argv.slice(2);
let modules = "target/vega/node";
let svgDir = null;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--modules") modules = args[++i];
  else if (args[i] === "--svg-dir") svgDir = args[++i];
  else files.push(args[i]);
}
if (files.length === 0) {
  console.error("usage: check.mjs [--modules DIR] [--svg-dir DIR] FILE...");
  process.exit(2);
}

const require = createRequire(join(resolve(modules), "package.json"));
const Ajv = require("ajv");
const addFormats = require("ajv-formats");
const vl = require("vega-lite");
const vega = require("vega");
const schema = JSON.parse(
  readFileSync(require.resolve("vega-lite/build/vega-lite-schema.json"), "utf8"),
);
const ajv = new Ajv({ allErrors: false, strict: false, allowUnionTypes: true });
addFormats(ajv);
// Vega-Lite's own format for colours such as #888888.
ajv.addFormat("color-hex", /^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i);
const validate = ajv.compile(schema);

// Collects what a Vega or Vega-Lite logger is told, instead of printing it.
function collector() {
  const said = [];
  let level = 0;
  const logger = {
    level(l) {
      if (l === undefined) return level;
      level = l;
      return logger;
    },
    error: (...m) => (said.push(`error: ${m.join(" ")}`), logger),
    warn: (...m) => (said.push(`warning: ${m.join(" ")}`), logger),
    info: () => logger,
    debug: () => logger,
  };
  return { logger, said };
}

async function check(spec) {
  if (!validate(spec)) {
    const e = validate.errors[0];
    throw new Error(`schema: ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
  }
  const compiled = collector();
  const vg = vl.compile(spec, { logger: compiled.logger }).spec;
  if (compiled.said.length) throw new Error(`vega-lite: ${compiled.said.join("; ")}`);
  const run = collector();
  const view = new vega.View(vega.parse(vg), { renderer: "none", logger: run.logger });
  view.logLevel(vega.Warn);
  const svg = await view.toSVG();
  view.finalize();
  // A headless View has no window to listen to: the one thing it may say
  // about a spec with drag selections (a browser has one).
  const said = run.said.filter((m) => m !== "warning: Can not resolve event source: window");
  if (said.length) throw new Error(`vega: ${said.join("; ")}`);
  if (!/<(path|rect|line|text)\b[^>]*\bclass="mark-/.test(svg) && !/class="mark-[a-z]+ role-mark/.test(svg)) {
    throw new Error("vega: the SVG has no marks");
  }
  return svg;
}

let passed = 0;
let failed = 0;
for (const file of files) {
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "");
  if (lines.length === 0) {
    console.log(`FAIL ${file}: no spec in the file`);
    failed++;
    continue;
  }
  for (const [i, line] of lines.entries()) {
    const name = `${file}:${i + 1}`;
    try {
      const svg = await check(JSON.parse(line));
      if (svgDir) {
        mkdirSync(svgDir, { recursive: true });
        writeFileSync(join(svgDir, `${basename(file)}.${i + 1}.svg`), svg);
      }
      console.log(`ok ${name}`);
      passed++;
    } catch (e) {
      console.log(`FAIL ${name}: ${e.message}`);
      failed++;
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
