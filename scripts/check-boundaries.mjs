// Import boundaries of CONVENTIONS.md rule 7, checked on every `npm run lint`:
// - src/domain imports neither src/server nor src/client (nor node: or React);
// - src/server never imports src/client; src/client imports src/server only as `import type`;
// - client features do not import each other (compose them in src/client/app).
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
    if (side === "server" && targetSide === "client") problems.push(`${rel}: server imports client ${spec}`);
    if (side === "client" && targetSide === "server" && !isTypeOnly) problems.push(`${rel}: client imports server code ${spec} (use import type)`);
    if (feature && target.startsWith(`src${path.sep}client${path.sep}features${path.sep}`)) {
      const other = target.split(path.sep)[3];
      if (other !== feature) problems.push(`${rel}: feature ${feature} imports feature ${other}`);
    }
  }
}
if (problems.length) {
  console.error(`Import boundaries broken (CONVENTIONS.md rule 7):\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(`boundaries ok (${files.length} files)`);
