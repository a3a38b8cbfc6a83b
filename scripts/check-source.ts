// Three rules (the last: migrations that would lock a big table), two of them the web app's ground, checked on every `npm run lint` (run with tsx):
// - French formatting has one home: no `new Intl.` in src outside src/domain/format.ts (and the time-zone
//   helper src/domain/loyalty/time.ts);
// - every route of SPEC §2 has a page unless it is named pending, a pending route has none, and the
//   back-office menu opens only pages that exist, one entry per page. The compiler says the same
//   (src/client/app/pages.ts is a `Record<ReadyRoute, …>`); this says it by name.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { PAGES } from "../src/client/app/pages.ts";
import { BACK_OFFICE_MENU } from "../src/client/components/back-office/menu.ts";
import { PENDING_ROUTES, ROUTES } from "../src/domain/routes.ts";
import { MIGRATIONS_DIR } from "../src/server/db/migrate.ts";
import { findLockingStatements } from "../src/server/db/migration-locks.ts";

const root = path.resolve(import.meta.dirname, "..");
const problems: string[] = [];

// ── one French formatting module ───────────────────────────────────────────────────────
const INTL_ALLOWED = new Set([
  "src/domain/format.ts",
  "src/domain/loyalty/time.ts",
]);
const files: string[] = [];
(function walk(dir: string) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(full);
  }
})(path.join(root, "src"));
for (const file of files) {
  const rel = path.relative(root, file).split(path.sep).join("/");
  if (INTL_ALLOWED.has(rel)) continue;
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (/new\s+Intl\./.test(line)) problems.push(`${rel}:${i + 1}: new Intl.… — use src/domain/format.ts`);
    });
}

// ── migrations that would lock a big table (docs/decisions/0039) ───────────────────────────
const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, "meta/_journal.json"), "utf8")) as {
  entries: { idx: number; tag: string }[];
};
for (const p of findLockingStatements(
  journal.entries.map((e) => ({ ...e, sql: readFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), "utf8") })),
))
  problems.push(`migrations/${p.migration}.sql:${p.line}: ${p.statement} — ${p.why} (or say why not: -- lock-ok: …)`);

// ── the route table and its pages ──────────────────────────────────────────────────────
const pages = new Set(Object.keys(PAGES));
const pending = new Set<string>(PENDING_ROUTES);
for (const { path: route } of ROUTES) {
  if (!pages.has(route) && !pending.has(route))
    problems.push(`route ${route} has no page (add it to src/client/app/pages.ts, or name it in PENDING_ROUTES)`);
  if (pages.has(route) && pending.has(route)) problems.push(`route ${route} has a page and is named pending`);
}
const routes = new Set(ROUTES.map((r) => r.path as string));
for (const page of pages)
  if (!routes.has(page)) problems.push(`page ${page} belongs to no route of src/domain/routes.ts`);
// The module each route loads, read from pages.ts: "/admin/scans" and "/admin/liste-scans" are one page.
const pagesSource = readFileSync(path.join(root, "src/client/app/pages.ts"), "utf8");
const moduleOf = new Map([...pagesSource.matchAll(/"(\/[^"]*)":[^"]*?import\("([^"]+)"\)/g)].map((m) => [m[1], m[2]]));
const pageOf = (route: string) => moduleOf.get(route) ?? route;
const seen = new Map<string, string>();
for (const entry of BACK_OFFICE_MENU.flatMap((g) => g.entries)) {
  for (const to of [entry.to, entry.staffTo].filter((t): t is NonNullable<typeof t> => Boolean(t))) {
    if (!pages.has(to)) problems.push(`menu entry "${entry.label}" opens ${to}, which has no page`);
  }
  // One entry per page: two entries whose routes load the same page module are one page twice.
  const key = pageOf(entry.to);
  const other = seen.get(key);
  if (other) problems.push(`menu entries "${other}" and "${entry.label}" open the same page`);
  seen.set(key, entry.label);
}

if (problems.length) {
  console.error(`Source rules broken:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(`source ok (${files.length} files, ${ROUTES.length} routes, ${PENDING_ROUTES.length} pending)`);
