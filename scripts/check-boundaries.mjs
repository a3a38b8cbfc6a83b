// Import boundaries of CONVENTIONS.md rule 7, checked on every `npm run lint`:
// - src/domain imports neither src/server nor src/client (nor node: or React);
// - src/server never imports src/client; src/client imports src/server only as `import type`;
// - client features do not import each other (compose them in src/client/app);
// - server modules (src/server/modules/<feature>) import each other without a cycle, direct or transitive.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (/\.(ts|tsx)$/.test(name)) files.push(full);
  }
})(path.join(root, "src"));

const importRe = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;
const problems = [];
const modulesDir = `src${path.sep}server${path.sep}modules${path.sep}`;
/** Server module → the server modules it imports, each with one file that shows it. */
const moduleEdges = new Map();
for (const file of files) {
  const rel = path.relative(root, file);
  const side = rel.split(path.sep)[1];
  const feature = rel.startsWith(`src${path.sep}client${path.sep}features${path.sep}`) ? rel.split(path.sep)[3] : null;
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(importRe)) {
    const isTypeOnly = Boolean(m[2]);
    const spec = m[3] ?? m[4] ?? m[5];
    if (!spec) continue;
    const target = spec.startsWith(".") ? path.relative(root, path.resolve(path.dirname(file), spec)) : spec;
    const targetSide = target.startsWith(`src${path.sep}`) ? target.split(path.sep)[1] : null;
    if (side === "domain") {
      if (targetSide === "server" || targetSide === "client") problems.push(`${rel}: domain imports ${spec}`);
      if (/^(node:|react|hono|drizzle-orm|pg$|@electric-sql)/.test(spec)) problems.push(`${rel}: domain imports ${spec}`);
    }
    if (rel.startsWith(modulesDir) && target.startsWith(modulesDir)) {
      const from = rel.split(path.sep)[3];
      const to = target.split(path.sep)[3];
      if (from !== to) {
        if (!moduleEdges.has(from)) moduleEdges.set(from, new Map());
        if (!moduleEdges.get(from).has(to)) moduleEdges.get(from).set(to, rel);
      }
    }
    if (side === "server" && targetSide === "client") problems.push(`${rel}: server imports client ${spec}`);
    if (side === "client" && targetSide === "server" && !isTypeOnly) problems.push(`${rel}: client imports server code ${spec} (use import type)`);
    if (feature && target.startsWith(`src${path.sep}client${path.sep}features${path.sep}`)) {
      const other = target.split(path.sep)[3];
      if (other !== feature) problems.push(`${rel}: feature ${feature} imports feature ${other}`);
    }
  }
}
// A cycle between server modules: depth-first search, reporting each cycle once (by its smallest rotation).
const seenCycles = new Set();
(function findCycles() {
  const state = new Map(); // module → "open" while on the path, "done" after
  const stack = [];
  const visit = (mod) => {
    state.set(mod, "open");
    stack.push(mod);
    for (const next of moduleEdges.get(mod)?.keys() ?? []) {
      if (state.get(next) === "open") {
        const cycle = stack.slice(stack.indexOf(next));
        const start = cycle.indexOf([...cycle].sort()[0]);
        const key = [...cycle.slice(start), ...cycle.slice(0, start)];
        if (!seenCycles.has(key.join())) {
          seenCycles.add(key.join());
          const via = key.map((m, i) => `${m} → ${key[(i + 1) % key.length]} (${moduleEdges.get(m).get(key[(i + 1) % key.length])})`);
          problems.push(`server modules import each other in a cycle: ${[...key, key[0]].join(" → ")}\n      ${via.join("\n      ")}`);
        }
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(mod, "done");
  };
  for (const mod of [...moduleEdges.keys()].sort()) if (!state.has(mod)) visit(mod);
})();

if (problems.length) {
  console.error(`Import boundaries broken (CONVENTIONS.md rule 7):\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(`boundaries ok (${files.length} files)`);
