// `npm test`: every suite, in lanes that run side by side (ADR 0047):
//   lane 1: a part of e2e (Chromium), which builds the web app, then e2e's route sweeps;
//   lane 2: unit, then the api suite on PGlite, then a part of e2e;
//   lane 3: the api suite on PostgreSQL (when TEST_DATABASE_URL is set) — much of its work is the PostgreSQL
//           server's, and its files wait on that server and on the second process they spawn; then a part of e2e.
// e2e waits on pages, timers and paced sends more than it computes; with e2e whole in lane 1, that lane ended minutes
// after the others. Each api suite beside another gets two workers. `npm test -- --serial` (or TEST_SERIAL=1) runs every suite one after the other,
// each printing as it goes; `npm test -- --plan` prints the lanes and runs nothing.
// Each suite writes vitest's JSON report; the counts are added up over all suites and
// the last line printed is exactly `N passed, N failed` (CI reads it, STACK.md).
// Exit code 1 when a test failed, a suite did not run, or a suite ran no test.
import "./require-node.mjs";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { webBuildReason } from "./build.mjs";

/**
 * CPU seconds (user + system) of this process's finished children and their own waited-for children (Linux's
 * cutime + cstime; null elsewhere). Wall time on a shared machine says little; CPU time says whether a change saves
 * work. A PostgreSQL server's own CPU is not in it (it is not our child).
 */
function childrenCpuSeconds() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the name: state is field 3, cutime 16 and cstime 17 (proc(5)); clock ticks of 1/100 s on Linux.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

// Run as `node scripts/test.mjs --cpu-into <file> <command…>`: runs the command, then writes the CPU time it and its
// children used into <file>. Suites that run side by side are each measured this way (cutime adds every child up).
if (process.argv[2] === "--cpu-into") {
  const [file, command, ...args] = process.argv.slice(3);
  const child = spawn(command, args, { stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => {
    writeFileSync(file, JSON.stringify({ cpu: childrenCpuSeconds() }));
    process.exit(signal ? 1 : (code ?? 1));
  });
} else await main();

async function main() {
  const root = path.resolve(import.meta.dirname, "..");
  const reportDir = path.join(root, "test-results", "reports");
  mkdirSync(reportDir, { recursive: true });

  const testDatabaseUrl = process.env.TEST_DATABASE_URL ?? "";
  const baseEnv = { ...process.env };
  delete baseEnv.TEST_DATABASE_URL;
  // A DATABASE_URL of the caller's shell must not leak into tests that build their own env.
  delete baseEnv.DATABASE_URL;

  const serialFlag = process.argv.includes("--serial");
  const serial = serialFlag || process.env.TEST_SERIAL === "1";

  // Extra arguments go to every vitest run (e.g. `npm test -- --bail=1`). Files named (`npm test -- tests/api/x.test.ts`)
  // run only the suites whose project holds them (vitest.config.ts's include folders).
  const extraArgs = process.argv.slice(2).filter((a) => a !== "--serial" && a !== "--plan");
  /** @type {{ name: string; tag: string; project: string; lane: number; env: Record<string, string | undefined>; args?: string[]; afterBuildOf?: string }[]} */
  const suites = [
    { name: "unit", tag: "unit", project: "unit", lane: 2, env: baseEnv },
    { name: "api (PGlite)", tag: "api-pglite", project: "api", lane: 2, env: baseEnv },
  ];
  if (testDatabaseUrl)
    suites.push({
      name: "api (PostgreSQL)",
      tag: "api-pg",
      project: "api",
      lane: 3,
      env: { ...baseEnv, TEST_DATABASE_URL: testDatabaseUrl },
    });
  // e2e is the longest suite: a run that names no file shares its files among the lanes, so that each lane ends about
  // when the others do (ADR 0047). Lane 1's part starts at once and builds the web app; the route sweeps (every SPEC
  // route for every role, issue 25) follow it there; lanes 2 and 3 take a part each after their api suite. Files
  // weigh the seconds they took in a measured run (tests/e2e/durations.json, by size when not measured: size follows
  // time at r = 0.65 only). The shares solve "every lane ends together" from quiet wall times of the rest (route
  // sweeps 178 s, unit + api on PGlite 350 s, api on PostgreSQL ~240 s; e2e files 2,334 s over 2 workers): loaded,
  // each suite took about 4 times its quiet time in CI (api on PGlite 4.4, e2e 4.1, sweeps 3.9), so the quiet
  // proportions hold. A run naming files, or --serial, keeps e2e one suite.
  const SWEEPS = "tests/e2e/no-sideways-scroll-";
  const splitE2e = !serial && !extraArgs.some((a) => !a.startsWith("-"));
  if (!splitE2e) suites.push({ name: "e2e (Chromium)", tag: "e2e", project: "e2e", lane: 1, env: baseEnv });
  else {
    const shares = testDatabaseUrl ? [0.4, 0.26, 0.34] : [0.57, 0.43];
    const parts = shareBySize(e2eFiles(root, SWEEPS), shares);
    const first = `e2e (Chromium) 1/${parts.length}`;
    for (const [i, files] of parts.entries())
      suites.push({
        name: `e2e (Chromium) ${i + 1}/${parts.length}`,
        tag: `e2e-${i + 1}`,
        project: "e2e",
        lane: i + 1,
        env: i === 0 ? baseEnv : { ...baseEnv, E2E_SKIP_BUILD: "1" },
        args: files,
        // The web app is built by the first part's setup: wait for it (a second Vite build at once would empty
        // dist/client under the pages of the first).
        afterBuildOf: i === 0 ? undefined : first,
      });
    suites.push({
      name: "e2e route sweeps (Chromium)",
      tag: "e2e-sweeps",
      project: "e2e",
      lane: 1,
      env: { ...baseEnv, E2E_SKIP_BUILD: "1" },
      args: [SWEEPS],
      afterBuildOf: first,
    });
  }

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
  const sideBySide = !serial && new Set(suites.map((s) => s.lane)).size > 1;
  // Side by side, the lanes' workers (each with its server, database and Chromium) share two cores: a load of 15–20
  // on the CI machine, where a test gets a tenth of a core and long ones met their limits (a journey over four phones,
  // migrating a PGlite from nothing). The limits only say when a test is called hung (tests/setup/timing.ts): they
  // are doubled here unless the caller chose a factor; a passing test never waits for them.
  const timeFactor = sideBySide && !process.env.TEST_TIME_FACTOR ? "2" : undefined;
  if (timeFactor) for (const suite of suites) suite.env = { ...suite.env, TEST_TIME_FACTOR: timeFactor };
  // `npm test -- --plan`: which suite runs in which lane, with which files, and nothing run.
  if (process.argv.includes("--plan")) {
    for (const suite of suites)
      console.log(`lane ${sideBySide ? suite.lane : 1}: ${suite.name} ${(suite.args ?? []).join(" ")}`);
    return;
  }

  /** Runs one suite's vitest (through the CPU wrapper); its output goes through with `[tag]` before each line. */
  function run(suite, reportFile, cpuFile) {
    const args = [
      path.join(root, "scripts/test.mjs"),
      "--cpu-into",
      cpuFile,
      process.execPath,
      path.join(root, "node_modules/vitest/vitest.mjs"),
      "run",
      "--project",
      suite.project,
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${reportFile}`,
      ...(suite.args ?? []),
      ...extraArgs,
    ];
    // Beside e2e, each api suite gets two workers (three when it has the machine to itself; vitest.config.ts).
    const env = sideBySide && suite.project === "api" ? { ...suite.env, TEST_API_WORKERS: "2" } : suite.env;
    return new Promise((resolve) => {
      const child = spawn(process.execPath, args, {
        cwd: root,
        env,
        stdio: ["ignore", sideBySide ? "pipe" : "inherit", sideBySide ? "pipe" : "inherit"],
      });
      if (sideBySide) {
        for (const [stream, out] of [
          [child.stdout, process.stdout],
          [child.stderr, process.stderr],
        ])
          createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) =>
            out.write(`[${suite.tag}] ${line}\n`),
          );
      }
      child.on("error", (error) => {
        console.error(`[test] ${suite.name}: ${error.message}`);
        resolve(1);
      });
      child.on("exit", (code, signal) => resolve(signal ? 1 : (code ?? 1)));
    });
  }

  /** The load average sampled every 5 s while a suite runs: its mean and peak say how busy the machine was. */
  function sampleLoad() {
    const samples = [os.loadavg()[0]];
    const timer = setInterval(() => samples.push(os.loadavg()[0]), 5000);
    return () => {
      clearInterval(timer);
      return { mean: samples.reduce((a, b) => a + b, 0) / samples.length, peak: Math.max(...samples) };
    };
  }

  /** One line per failed test or broken file of a vitest JSON report: file › test — the message's first line. */
  function failuresOf(report) {
    const lines = [];
    for (const file of report.testResults ?? []) {
      const name = path.relative(root, file.name ?? "");
      const failed = (file.assertionResults ?? []).filter((t) => t.status === "failed");
      for (const t of failed) lines.push(`${name} › ${t.fullName ?? t.title} — ${firstLine(t.failureMessages?.[0])}`);
      if (file.status === "failed" && failed.length === 0) lines.push(`${name} — ${firstLine(file.message)}`);
    }
    return lines;
  }

  function firstLine(text) {
    const plain = String(text ?? "").replace(/\u001b\[[0-9;]*m/g, "");
    const line = plain.split("\n").find((l) => l.trim()) ?? "";
    return line.length > 300 ? `${line.slice(0, 300)}…` : line;
  }

  function readJson(file) {
    if (!existsSync(file)) return null;
    try {
      return JSON.parse(readFileSync(file, "utf8"));
    } catch {
      return null;
    }
  }

  /** Suites that have ended, by name (a suite waiting on another's build stops waiting when that one ends). */
  const ended = new Set();

  /** Waits until dist/client matches its sources, or until `builder` has ended (then the suite builds by itself). */
  async function waitForWebBuild(suite) {
    while (webBuildReason() !== null) {
      if (ended.has(suite.afterBuildOf) || !suites.some((s) => s.name === suite.afterBuildOf)) {
        suite.env = { ...suite.env, E2E_SKIP_BUILD: "0" };
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }

  async function runSuite(suite) {
    if (suite.afterBuildOf) await waitForWebBuild(suite);
    const slug = suite.name
      .replace(/[^a-z0-9]+/gi, "-")
      .replace(/-+$/, "")
      .toLowerCase();
    const reportFile = path.join(reportDir, `${slug}.json`);
    const cpuFile = path.join(reportDir, `${slug}.cpu.json`);
    rmSync(reportFile, { force: true });
    rmSync(cpuFile, { force: true });
    console.log(`\n━━━ ${suite.name}${sideBySide ? ` (lines marked [${suite.tag}])` : ""} ━━━`);
    const started = Date.now();
    const stopSampling = sampleLoad();
    const exitCode = await run(suite, reportFile, cpuFile);
    const load = stopSampling();
    const seconds = (Date.now() - started) / 1000;
    const cpu = readJson(cpuFile)?.cpu ?? null;
    const report = readJson(reportFile);
    const result = {
      name: suite.name,
      seconds,
      cpu,
      load,
      exitCode,
      passed: 0,
      failed: 0,
      skipped: 0,
      problem: "",
      /** @type {string[]} */
      failures: [],
    };
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
      result.failures = failuresOf(report);
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
    console.log(`━━━ ${suite.name}: ${result.passed} passed, ${result.failed} failed ━━━`);
    ended.add(suite.name);
    return result;
  }

  const startedAll = Date.now();
  const stopSamplingAll = sampleLoad();
  let results;
  if (sideBySide) {
    const lanes = [...new Set(suites.map((s) => s.lane))].map((lane) => suites.filter((s) => s.lane === lane));
    const laneResults = await Promise.all(
      lanes.map(async (lane) => {
        const done = [];
        for (const suite of lane) done.push(await runSuite(suite));
        return done;
      }),
    );
    results = suites.map((suite) => laneResults.flat().find((r) => r.name === suite.name));
  } else {
    results = [];
    for (const suite of suites) results.push(await runSuite(suite));
  }
  const loadAll = stopSamplingAll();

  const total = results.reduce((t, r) => ({ passed: t.passed + r.passed, failed: t.failed + r.failed }), {
    passed: 0,
    failed: 0,
  });
  // What failed, named where CI's tail shows it (the suites' own reports scroll out of sight).
  const failures = results.flatMap((r) => r.failures.map((f) => `[${r.name}] ${f}`));
  if (failures.length > 0) {
    console.log("\n━━━ failed ━━━");
    for (const line of failures.slice(0, 20)) console.log(line);
    if (failures.length > 20) console.log(`… and ${failures.length - 20} more`);
  }
  const width = Math.max(...results.map((r) => r.name.length));
  console.log(`\n━━━ summary${sideBySide ? " (e2e beside the others)" : ""} ━━━`);
  for (const r of results) {
    const skipped = r.skipped ? `, ${r.skipped} skipped` : "";
    const problem = r.problem ? `  ← ${r.problem}` : "";
    const cpu = r.cpu === null ? "" : `, CPU ${r.cpu.toFixed(0)} s`;
    const load = `, load ${r.load.mean.toFixed(1)} (peak ${r.load.peak.toFixed(1)})`;
    console.log(
      `${r.name.padEnd(width)}  ${r.passed} passed, ${r.failed} failed${skipped}  (${r.seconds.toFixed(1)} s${cpu}${load})${problem}`,
    );
  }
  if (!testDatabaseUrl) console.log("(TEST_DATABASE_URL unset: the API suite ran on PGlite only)");
  if (timeFactor)
    console.log(`(limits ×${timeFactor}, the suites running side by side: TEST_TIME_FACTOR sets another)`);
  const allCpu = childrenCpuSeconds();
  console.log(
    `total time ${((Date.now() - startedAll) / 1000).toFixed(1)} s${allCpu === null ? "" : `, CPU ${allCpu.toFixed(0)} s`}, load ${loadAll.mean.toFixed(1)} (peak ${loadAll.peak.toFixed(1)})`,
  );
  console.log(`${total.passed} passed, ${total.failed} failed`);
  process.exitCode = total.failed > 0 ? 1 : 0;
}

/** The e2e test files (paths from the root), the sweeps left out. */
function e2eFiles(root, sweepsPrefix) {
  const files = readdirSync(path.join(root, "tests/e2e"))
    .filter((name) => name.endsWith(".test.ts"))
    .map((name) => `tests/e2e/${name}`)
    .filter((file) => !file.startsWith(sweepsPrefix))
    .map((file) => ({ file, bytes: statSync(path.join(root, file)).size }));
  // A file's weight is the seconds it took in a measured run (tests/e2e/durations.json); a file not measured yet
  // weighs its size at the measured files' seconds per byte.
  let measured = {};
  try {
    measured = JSON.parse(readFileSync(path.join(root, "tests/e2e/durations.json"), "utf8")).seconds ?? {};
  } catch {}
  const known = files.filter((f) => typeof measured[f.file] === "number");
  const secondsPerByte =
    known.length > 0
      ? known.reduce((sum, f) => sum + measured[f.file], 0) / known.reduce((sum, f) => sum + f.bytes, 0)
      : 1;
  return files.map(({ file, bytes }) => ({ file, size: measured[file] ?? bytes * secondsPerByte }));
}

/** Files shared into `shares.length` parts whose total weights (`size`) follow the shares (largest file first, each to the part
 * furthest below its share). Every part gets at least one file. */
function shareBySize(files, shares) {
  const parts = shares.map(() => ({ files: [], size: 0 }));
  for (const { file, size } of [...files].sort((a, b) => b.size - a.size || a.file.localeCompare(b.file))) {
    const empty = parts.findIndex((p) => p.files.length === 0);
    const at =
      empty >= 0
        ? empty
        : parts.reduce(
            (best, p, i) => ((p.size + size) / shares[i] < (parts[best].size + size) / shares[best] ? i : best),
            0,
          );
    parts[at].files.push(file);
    parts[at].size += size;
  }
  return parts.map((p) => p.files.sort());
}
