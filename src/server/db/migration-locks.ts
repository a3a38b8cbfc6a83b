/*
 * Migrations that would hold a lock on a big table for long (docs/decisions/0039). Drizzle's migrator runs every
 * pending migration in one transaction, so `CREATE INDEX CONCURRENTLY` is not available to a migration: a statement
 * that rewrites or scans a table that already holds data is refused unless the line before it says why it is
 * acceptable (`-- lock-ok: <reason>`, e.g. "a few rows per shop"), so the question is asked in review.
 * Tables created in the same migration are new and empty: anything goes on them.
 * Migrations released before this check (up to BASELINE) are history and are not judged again.
 */
export const BASELINE_MIGRATION = 22;

type Rule = { pattern: RegExp; why: string };

const RULES: Rule[] = [
  { pattern: /^create\s+(unique\s+)?index\s+(?!concurrently)/i, why: "builds an index while writes wait" },
  { pattern: /\balter\s+column\s+\S+\s+(set\s+data\s+)?type\b/i, why: "rewrites the table (a column's type)" },
  { pattern: /\balter\s+column\s+\S+\s+set\s+not\s+null\b/i, why: "scans the whole table under an exclusive lock" },
  {
    pattern: /\badd\s+(column\s+)?\S+\s+[^,;]*\bdefault\s+[^,;]*(random|uuid|clock_timestamp|nextval)\s*\(/i,
    why: "a volatile default rewrites every row",
  },
  {
    pattern: /\badd\s+(column\s+)?\S+\s+[^;]*\bgenerated\s+always\s+as\s*\(/i,
    why: "a stored column rewrites the table",
  },
  {
    pattern: /\badd\s+constraint\s+\S+\s+(foreign\s+key|check)\b(?![^;]*\bnot\s+valid\b)/i,
    why: "checks every row under lock (add it NOT VALID, then VALIDATE CONSTRAINT)",
  },
  { pattern: /\badd\s+(constraint\s+\S+\s+)?(primary\s+key|unique)\b/i, why: "builds an index while writes wait" },
  {
    pattern: /^(update|delete\s+from)\s+("?[a-z_]+"?)(?![^;]*\bwhere\b)/i,
    why: "touches every row in one transaction",
  },
  { pattern: /^(vacuum\s+full|cluster|lock\s+table)\b/i, why: "locks the table" },
];

type LockProblem = { migration: string; line: number; statement: string; why: string };

/** The table a statement works on, for the statements the rules look at. */
function tableOf(statement: string): string | null {
  const m =
    /^alter\s+table\s+(?:only\s+)?(?:if\s+exists\s+)?"?(?:public"?\."?)?([a-z_][a-z0-9_]*)"?/i.exec(statement) ??
    /^create\s+(?:unique\s+)?index\s+(?:concurrently\s+)?(?:if\s+not\s+exists\s+)?\S*\s+on\s+(?:only\s+)?"?(?:public"?\."?)?([a-z_][a-z0-9_]*)"?/i.exec(
      statement,
    ) ??
    /^(?:update|delete\s+from|vacuum\s+full|cluster|lock\s+table)\s+"?(?:public"?\."?)?([a-z_][a-z0-9_]*)"?/i.exec(
      statement,
    );
  return m?.[1]?.toLowerCase() ?? null;
}

/**
 * Splits a migration into statements with the line each starts on and the comment lines just above it.
 * Function bodies ($$ … $$) are kept whole.
 */
function statements(sql: string): { text: string; line: number; comments: string }[] {
  const out: { text: string; line: number; comments: string }[] = [];
  let current = "";
  let comments = "";
  let startLine = 0;
  let inDollar: string | null = null;
  sql.split("\n").forEach((raw, i) => {
    const line = raw.replace(/-->\s*statement-breakpoint/g, "");
    const trimmed = line.trim();
    if (!inDollar && current === "" && (trimmed === "" || trimmed.startsWith("--"))) {
      comments = trimmed.startsWith("--") ? `${comments}\n${trimmed}` : trimmed === "" ? "" : comments;
      return;
    }
    if (current === "") startLine = i + 1;
    current += `${line}\n`;
    for (const tag of line.match(/\$[a-z_]*\$/gi) ?? []) inDollar = inDollar === tag ? null : (inDollar ?? tag);
    if (!inDollar && /;\s*(--.*)?$/.test(trimmed)) {
      out.push({ text: current.trim(), line: startLine, comments });
      current = "";
      comments = "";
    }
  });
  if (current.trim()) out.push({ text: current.trim(), line: startLine, comments });
  return out;
}

/** The problems in the migrations after the baseline; `migrations` in journal order (idx, tag, sql). */
export function findLockingStatements(migrations: { idx: number; tag: string; sql: string }[]): LockProblem[] {
  const problems: LockProblem[] = [];
  const existing = new Set<string>();
  for (const m of migrations) {
    const createdHere = new Set<string>();
    for (const s of statements(m.sql)) {
      const created = /^create\s+table\s+(?:if\s+not\s+exists\s+)?"?(?:public"?\."?)?([a-z_][a-z0-9_]*)"?/i.exec(
        s.text,
      );
      if (created?.[1]) createdHere.add(created[1].toLowerCase());
      if (m.idx <= BASELINE_MIGRATION) continue;
      const table = tableOf(s.text);
      if (!table || createdHere.has(table) || !existing.has(table)) continue;
      if (/--\s*lock-ok:\s*\S/.test(s.comments)) continue;
      const rule = RULES.find((r) => r.pattern.test(s.text));
      if (rule)
        problems.push({ migration: m.tag, line: s.line, statement: s.text.split("\n")[0] ?? "", why: rule.why });
    }
    for (const t of createdHere) existing.add(t);
  }
  return problems;
}
