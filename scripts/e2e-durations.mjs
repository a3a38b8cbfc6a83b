// Writes tests/e2e/durations.json (the seconds each e2e file took) from the e2e reports of the last `npm test`
// (test-results/reports/e2e-*.json, route sweeps left out): scripts/test.mjs shares e2e's files among its lanes by
// these. Run it after a quiet run: `npm test && node scripts/e2e-durations.mjs`.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const reports = path.join(root, "test-results", "reports");
const seconds = {};
for (const name of readdirSync(reports)) {
  if (!/^e2e-chromium.*\.json$/.test(name) || name.endsWith(".cpu.json")) continue;
  const report = JSON.parse(readFileSync(path.join(reports, name), "utf8"));
  for (const file of report.testResults ?? []) {
    const relative = path.relative(root, file.name);
    if (!relative.startsWith("tests/e2e/") || relative.includes("no-sideways-scroll-")) continue;
    seconds[relative] = Math.round((file.endTime - file.startTime) / 1000);
  }
}
if (Object.keys(seconds).length === 0) {
  console.error(`no e2e report in ${reports}: run npm test first`);
  process.exit(1);
}
const target = path.join(root, "tests/e2e/durations.json");
const { $comment } = JSON.parse(readFileSync(target, "utf8"));
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(target, `${JSON.stringify({ $comment, seconds: sorted }, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} files written to ${path.relative(root, target)}`);
