// Four rules, checked on every `npm run lint` (run with tsx):
// - French formatting has one home: no `new Intl.` in src outside src/domain/format.ts (and the time-zone
//   helper src/domain/loyalty/time.ts);
// - every route of SPEC §2 has a page unless it is named pending, a pending route has none, and the
//   back-office menu opens only pages that exist, one entry per page in each role's menu. The compiler says the same
//   (src/client/app/pages.ts is a `Record<ReadyRoute, …>`); this says it by name;
// - migrations that would lock a big table;
// - the README's code tour names every feature folder of each side (src/server/modules/*, src/client/features/*,
//   src/domain/*) at its place in the tree, and every job file of src/server/jobs (one that calls defineJob, plain
//   or generic),
//   as the tree is now.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { PAGES } from "../src/client/app/pages.ts";
import { BACK_OFFICE_MENU } from "../src/client/components/back-office/menu.ts";
import { checkAccess, PENDING_ROUTES, ROUTES } from "../src/domain/routes.ts";
import { MIGRATIONS_DIR } from "../src/server/db/migrate.ts";
import { findLockingStatements } from "../src/server/db/migration-locks.ts";

const root = path.resolve(import.meta.dirname, "..");
const problems: string[] = [];

// ── one French formatting module ───────────────────────────────────────────────────────
const INTL_ALLOWED = new Set(["src/domain/format.ts", "src/domain/loyalty/time.ts"]);
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
for (const entry of BACK_OFFICE_MENU.flatMap((g) => g.entries)) {
  for (const to of [entry.to, entry.staffTo].filter((t): t is NonNullable<typeof t> => Boolean(t))) {
    if (!pages.has(to)) problems.push(`menu entry "${entry.label}" opens ${to}, which has no page`);
  }
}
// Each role's menu opens only pages that role may enter (issue 25 row 4: staff were offered an owner's page, a 403).
const VIEWERS = {
  owner: { isSignedIn: true, isAdmin: false, isOwner: true, isStaff: true },
  staff: { isSignedIn: true, isAdmin: false, isOwner: false, isStaff: true },
  platform: { isSignedIn: true, isAdmin: true, isOwner: false, isStaff: false },
} as const;
for (const entry of BACK_OFFICE_MENU.flatMap((g) => g.entries)) {
  for (const role of entry.roles) {
    const to = role === "staff" ? (entry.staffTo ?? entry.to) : entry.to;
    const guard = ROUTES.find((r) => r.path === to)?.guard ?? "public";
    if (checkAccess(guard, VIEWERS[role]) !== "allow")
      problems.push(`menu entry "${entry.label}" is shown to ${role}, who may not open ${to} (guard ${guard})`);
  }
}
// One entry per page in each role's menu: two entries whose routes load the same page module (at the same view)
// are one page twice. A page may sit in two roles' menus (the owner's Équipe, the platform's group).
for (const role of ["owner", "staff", "platform"] as const) {
  const seen = new Map<string, string>();
  for (const entry of BACK_OFFICE_MENU.flatMap((g) => g.entries).filter((e) => e.roles.includes(role))) {
    const key = `${pageOf(entry.to)}?${entry.view ?? ""}`;
    const other = seen.get(key);
    if (other) problems.push(`menu entries "${other}" and "${entry.label}" open the same page for ${role}`);
    seen.set(key, entry.label);
  }
}

// ── the README's code tour against the tree ─────────────────────────────────────────────
{
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const tour = readme.slice(readme.indexOf("## Code tour")).split(/\n## /)[0]!;
  // The tree block: a line's first word is an entry, its parent the nearest line above it, less indented, whose
  // entry is a folder; "modules/<feature>/"'s children stand for "modules/<child>/". Wrapped descriptions are
  // indented deeper than any entry and name nothing that is checked.
  const tree = tour.match(/```\n(src\/[\s\S]*?)```/)?.[1] ?? "";
  const named = new Set<string>();
  const stack: { indent: number; path: string }[] = [];
  for (const line of tree.split("\n")) {
    const m = line.match(/^( *)(\S+)/);
    if (!m) continue;
    const indent = m[1]!.length;
    while (stack.length && stack.at(-1)!.indent >= indent) stack.pop();
    const parent = stack.at(-1)?.path ?? "";
    const entry = /<[^>]+>\/$/.test(parent) ? parent.replace(/<[^>]+>\/$/, m[2]!) : parent + m[2]!;
    named.add(entry);
    if (entry.endsWith("/")) stack.push({ indent, path: entry });
  }
  const folders = (dir: string) =>
    readdirSync(path.join(root, dir), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `${dir}/${d.name}/`);
  for (const folder of [...folders("src/server/modules"), ...folders("src/client/features"), ...folders("src/domain")])
    if (!named.has(folder)) problems.push(`README.md's code tour does not name ${folder} (under its side's folder)`);
  for (const name of readdirSync(path.join(root, "src/server/jobs")).filter((n) => n.endsWith(".ts"))) {
    // `defineJob({…})` or `defineJob<"name", Data>({…})`: the generic form is a job too.
    const isJob = /=\s*defineJob\s*[<(]/.test(readFileSync(path.join(root, "src/server/jobs", name), "utf8"));
    if (isJob && !new RegExp(`\\b${name.replace(".", "\\.")}`).test(tour))
      problems.push(`README.md's code tour does not name the job file src/server/jobs/${name}`);
  }
}

if (problems.length) {
  console.error(`Source rules broken:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(`source ok (${files.length} files, ${ROUTES.length} routes, ${PENDING_ROUTES.length} pending)`);
