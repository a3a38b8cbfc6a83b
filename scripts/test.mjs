// `npm test`: every suite, one after the other (two cores are better used by one
// suite's own workers than by two suites fighting):
//   unit · api on PGlite · api on PostgreSQL (when TEST_DATABASE_URL is set) · e2e.
// Each suite writes vitest's JSON report; the counts are added up over all suites and
// the last line printed is exactly `N passed, N failed` (CI reads it, STACK.md).
// Exit code 1 when a test failed, a suite did not run, or a suite ran no test.
import "./require-node.mjs";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const reportDir = path.join(root, "test-results", "reports");
mkdirSync(reportDir, { recursive: true });

const testDatabaseUrl = process.env.TEST_DATABASE_URL ?? "";
const baseEnv = { ...process.env };
delete baseEnv.TEST_DATABASE_URL;
// A DATABASE_URL of the caller's shell must not leak into tests that build their own env.
delete baseEnv.DATABASE_URL;

/** @type {{ name: string; project: string; env: Record<string, string | undefined> }[]} */
const suites = [
  { name: "unit", project: "unit", env: baseEnv },
  { name: "api (PGlite)", project: "api", env: baseEnv },
];
if (testDatabaseUrl)
  suites.push({ name: "api (PostgreSQL)", project: "api", env: { ...baseEnv, TEST_DATABASE_URL: testDatabaseUrl } });
suites.push({ name: "e2e (Chromium)", project: "e2e", env: baseEnv });

// Extra arguments go to every vitest run (e.g. `npm test -- --bail=1`). Files named (`npm test -- tests/api/x.test.ts`)
// run only the suites whose project holds them (vitest.config.ts's include folders).
const extraArgs = process.argv.slice(2);
const PROJECT_FOLDERS = { unit: ["src/domain", "src/client"], api: ["src/server", "tests/api"], e2e: ["tests/e2e"] };
const named = extraArgs.filter((a) => !a.startsWith("-")).map((a) => path.relative(root, path.resolve(a)));
if (named.length > 0) {
  const holds = (suite) => named.some((file) => PROJECT_FOLDERS[suite.project].some((dir) => file.startsWith(dir)));
  for (let i = suites.length - 1; i >= 0; i--) if (!holds(suites[i])) suites.splice(i, 1);
  if (suites.length === 0) {
    console.error(`[test] no suite holds ${named.join(", ")} (${Object.values(PROJECT_FOLDERS).flat().join(", ")})`);
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
}

function run(suite, reportFile) {
  const args = [
    path.join(root, "node_modules/vitest/vitest.mjs"),
    "run",
    "--project",
    suite.project,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${reportFile}`,
    ...extraArgs,
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, env: suite.env, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", (error) => {
      console.error(`[test] ${suite.name}: ${error.message}`);
      resolve(1);
    });
    child.on("exit", (code, signal) => resolve(signal ? 1 : (code ?? 1)));
  });
}

function readReport(file) {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

const results = [];
const startedAll = Date.now();
for (const suite of suites) {
  const slug = suite.name
    .replace(/[^a-z0-9]+/gi, "-")
    .replace(/-+$/, "")
    .toLowerCase();
  const reportFile = path.join(reportDir, `${slug}.json`);
  rmSync(reportFile, { force: true });
  console.log(`\n━━━ ${suite.name} ━━━`);
  const started = Date.now();
  const exitCode = await run(suite, reportFile);
  const seconds = (Date.now() - started) / 1000;
  const report = readReport(reportFile);
  const result = { name: suite.name, seconds, exitCode, passed: 0, failed: 0, skipped: 0, problem: "" };
  if (!report) {
    result.failed = 1;
    result.problem = "did not run (no report)";
  } else {
    result.passed = report.numPassedTests ?? 0;
    result.failed = report.numFailedTests ?? 0;
    result.skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    // A file that failed outside any test (import error, beforeAll) has no failed test of its own.
    const brokenFiles = (report.testResults ?? []).filter(
      (file) => file.status === "failed" && !(file.assertionResults ?? []).some((t) => t.status === "failed"),
    );
    if (brokenFiles.length > 0) {
      result.failed += brokenFiles.length;
      result.problem = `${brokenFiles.length} file(s) failed outside a test`;
    } else if (result.passed + result.failed === 0) {
      result.failed = 1;
      result.problem = "ran no test";
    } else if (exitCode !== 0 && result.failed === 0) {
      // e.g. an unhandled error after the tests: vitest fails the run, so do we.
      result.failed = 1;
      result.problem = `vitest exited with ${exitCode}`;
    }
  }
  results.push(result);
}

const total = results.reduce((t, r) => ({ passed: t.passed + r.passed, failed: t.failed + r.failed }), {
  passed: 0,
  failed: 0,
});
const width = Math.max(...results.map((r) => r.name.length));
console.log("\n━━━ summary ━━━");
for (const r of results) {
  const skipped = r.skipped ? `, ${r.skipped} skipped` : "";
  const problem = r.problem ? `  ← ${r.problem}` : "";
  console.log(
    `${r.name.padEnd(width)}  ${r.passed} passed, ${r.failed} failed${skipped}  (${r.seconds.toFixed(1)} s)${problem}`,
  );
}
if (!testDatabaseUrl) console.log("(TEST_DATABASE_URL unset: the API suite ran on PGlite only)");
console.log(`total time ${((Date.now() - startedAll) / 1000).toFixed(1)} s`);
console.log(`${total.passed} passed, ${total.failed} failed`);
process.exitCode = total.failed > 0 ? 1 : 0;
