// Writes tests/durations.json (the seconds each e2e file and each api file took) from the reports of the last
// `npm test` (test-results/reports: e2e's parts, route sweeps left out, and the api suite on PGlite): scripts/test.mjs
// cuts those suites into parts of about equal weight by these. Run it after a quiet run:
// `npm test && node scripts/test-durations.mjs`.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const reports = path.join(root, "test-results", "reports");
const target = path.join(root, "tests/durations.json");
const { $comment, seconds: before } = JSON.parse(readFileSync(target, "utf8"));
const seconds = {};
for (const name of readdirSync(reports)) {
  if (!/^(e2e-chromium|api-pglite).*\.json$/.test(name) || name.endsWith(".cpu.json")) continue;
  const report = JSON.parse(readFileSync(path.join(reports, name), "utf8"));
  for (const file of report.testResults ?? []) {
    const relative = path.relative(root, file.name);
    if (relative.includes("no-sideways-scroll-")) continue;
    seconds[relative] = Math.round((file.endTime - file.startTime) / 1000);
  }
}
if (Object.keys(seconds).length === 0) {
  console.error(`no e2e or api report in ${reports}: run npm test first`);
  process.exit(1);
}
// A suite the run did not report keeps its last figures.
const merged = Object.fromEntries(Object.entries({ ...before, ...seconds }).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(target, `${JSON.stringify({ $comment, seconds: merged }, null, 2)}\n`);
console.log(`${Object.keys(seconds).length} files measured, written to ${path.relative(root, target)}`);
