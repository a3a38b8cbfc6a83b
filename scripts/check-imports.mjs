// Two rules on the import graph (scripts/import-graph.mjs), checked on every `npm run lint`:
// - no import cycle between files of src/, counting `import type` and `export … from` too: a cycle of types still
//   ties two files into one thing to understand and to move (dynamic `import()` is left out: it loads later);
// - no exported name that nothing uses: each export of src/ is imported somewhere (src/, scripts/, bench/, the
//   configuration files, or a test). One that only tests import is dead code kept alive by its test, unless its own
//   file uses it too (then it is exported to be tested).
// `--fix` drops the `export` keyword of declarations that nothing imports but their own file uses (the rest, dead
// code, is for a person to delete).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { listFiles, parseFile, rel, resolveImport, root } from "./import-graph.mjs";

const isTest = (file) => /\.test\.tsx?$/.test(file) || rel(file).startsWith("tests/");
// Used by tests on purpose. The parity test's names are the TypeScript rules a database function is proven equal
// to (CONVENTIONS: one owner, both sides run through one table of cases): it counts as a caller.
const PARITY_TEST = "tests/api/rules-parity.test.ts";
const TEST_SUPPORT = new Set([
  // One set of factories for seed and tests (CONVENTIONS rule 11): some only tests need.
  "src/server/db/factories.ts",
  // Tests reach local HTTPS servers through the real outbound door, trusting their own certificate authority.
  "src/server/lib/outbound.ts trustCertificateAuthority",
]);
const sources = listFiles("src", /\.(ts|tsx)$/).filter((f) => !f.endsWith(".d.ts"));
const consumers = [
  ...sources,
  ...listFiles("tests"),
  ...listFiles("scripts"),
  ...listFiles("bench"),
  ...["vite.config.ts", "vitest.config.ts", "drizzle.config.ts"].map((f) => path.join(root, f)),
];
const parsed = new Map(consumers.map((f) => [f, parseFile(f)]));
const problems = [];
const fix = process.argv.includes("--fix");
const unexported = new Map(); // file → line numbers to drop `export` from
const unexport = (file, line) => unexported.set(file, [...(unexported.get(file) ?? []), line]);

// ── import cycles in src/ (Tarjan's strongly connected components, each reported with one cycle through it) ──
const edges = new Map();
for (const file of sources) {
  const targets = new Map();
  for (const imp of parsed.get(file).imports) {
    if (imp.dynamic) continue;
    const target = resolveImport(file, imp.spec);
    if (target?.startsWith(path.join(root, "src")) && !targets.has(target)) targets.set(target, imp);
  }
  edges.set(file, targets);
}
{
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const connect = (v) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!indexOf.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || edges.get(v)?.has(v)) components.push(component);
    }
  };
  for (const file of [...edges.keys()].sort()) if (!indexOf.has(file)) connect(file);
  for (const component of components) {
    // The shortest way back to the first file, inside the component (breadth-first).
    const members = new Set(component);
    const start = [...component].sort()[0];
    const cameFrom = new Map([[start, null]]);
    const queue = [start];
    let cycle = null;
    while (queue.length && !cycle) {
      const v = queue.shift();
      for (const w of edges.get(v).keys()) {
        if (!members.has(w)) continue;
        if (w === start) {
          cycle = [];
          for (let u = v; u; u = cameFrom.get(u)) cycle.unshift(u);
          break;
        }
        if (!cameFrom.has(w)) {
          cameFrom.set(w, v);
          queue.push(w);
        }
      }
    }
    const steps = cycle.map((v, i) => {
      const w = cycle[(i + 1) % cycle.length];
      const imp = edges.get(v).get(w);
      return `${rel(v)}:${imp.line} ${imp.reexport ? "export … from" : imp.typeOnly ? "import type" : "import"} ${imp.spec}`;
    });
    const more = component.length > cycle.length ? ` (${component.length} files tied together in all)` : "";
    problems.push(`import cycle${more}:\n      ${steps.join("\n      ")}`);
  }
}

// ── exported names that nothing uses ──
const exportsOf = (file) => parsed.get(file)?.exports ?? [];
const used = new Map(); // `${file}\0${name}` → { test, real }
const mark = (file, name, test, seen = new Set()) => {
  const key = `${file}\0${name}`;
  if (seen.has(key) || !parsed.has(file)) return;
  seen.add(key);
  const own = exportsOf(file).filter((e) => e.name === name);
  for (const e of own) {
    const u = used.get(key) ?? { test: false, real: false };
    u[test ? "test" : "real"] = true;
    used.set(key, u);
    if (e.from) {
      const target = resolveImport(file, e.from);
      if (target) mark(target, e.local, test, seen);
    }
  }
  if (!own.length)
    for (const star of exportsOf(file).filter((e) => e.name === "*")) {
      const target = resolveImport(file, star.from);
      if (target) mark(target, name, test, seen);
    }
};
const markAll = (file, test, seen = new Set()) => {
  if (seen.has(file)) return;
  seen.add(file);
  for (const e of exportsOf(file)) {
    if (e.name !== "*") mark(file, e.name, test);
    else {
      const target = resolveImport(file, e.from);
      if (target) markAll(target, test, seen);
    }
  }
};
for (const [file, { imports }] of parsed) {
  for (const imp of imports) {
    const target = resolveImport(file, imp.spec);
    if (!target) continue;
    const test = isTest(file) && rel(file) !== PARITY_TEST;
    if (imp.names === null) markAll(target, test);
    else for (const n of imp.names) mark(target, n.imported, test);
  }
}
const DECLARED = /(const|let|var|function\*?|class|type|interface|enum|namespace)\s+$/;
const usedInOwnFile = (bare, local) => {
  const re = new RegExp(`(?<![\\w$])(?<!(?<!\\.\\.)\\.)${local.replace(/\$/g, "\\$")}(?![\\w$])`, "g");
  for (const m of bare.matchAll(re)) {
    const lineStart = bare.lastIndexOf("\n", m.index) + 1;
    const before = bare.slice(lineStart, m.index);
    if (DECLARED.test(before) || /^\s*export\s+(type\s+)?\{/.test(before)) continue;
    return true;
  }
  return false;
};
for (const file of sources) {
  if (isTest(file)) continue;
  const { exports, bare } = parsed.get(file);
  for (const e of exports) {
    if (e.name === "*") continue;
    const u = used.get(`${file}\0${e.name}`);
    if (u?.real) continue;
    if (!u) {
      if (fix && !e.from && e.name !== "default" && usedInOwnFile(bare, e.local)) unexport(file, e.line);
      else
        problems.push(
          `${rel(file)}:${e.line}: ${e.name} is exported but nothing imports it (remove it, or the export)`,
        );
    } else if (TEST_SUPPORT.has(rel(file)) || TEST_SUPPORT.has(`${rel(file)} ${e.name}`)) continue;
    else if (!e.from && !usedInOwnFile(bare, e.local))
      problems.push(`${rel(file)}:${e.line}: ${e.name} is used only by tests: dead code kept alive by its test`);
  }
}

for (const [file, lines] of unexported) {
  const text = readFileSync(file, "utf8").split("\n");
  for (const line of lines)
    text[line - 1] = text[line - 1].replace(
      /^(\s*)export\s+(?=(declare\s+)?(async\s+)?(const|let|var|function|class|abstract|type|interface|enum)\b)/,
      "$1",
    );
  writeFileSync(file, text.join("\n"));
}
if (unexported.size)
  console.log(
    `--fix: dropped ${[...unexported.values()].flat().length} exports nothing imports (${unexported.size} files)`,
  );
if (problems.length) {
  console.error(`Import graph rules broken:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(`imports ok (${sources.length} files in src/, no cycle, every export used)`);
