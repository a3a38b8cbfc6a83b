import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT, table, writeResult } from "./lib.ts";

/**
 * Issue 11 budget: `npm start` on a fresh clone (no dist/, an empty DATA_DIR), web build included,
 * answers /api/health within 15 s; a later start (built, migrated, seeded) within 3 s. Runs
 * scripts/start.mjs as `npm start` does, polls /api/health every 50 ms, and keeps the start log's
 * phase lines ([start] …, timed from the launch). BENCH_START_RUNS (default 1) repeats the pair.
 * Careful: it removes dist/client (the e2e suites rebuild it when they need it).
 */
const FIRST_BUDGET_S = 15;
/** BENCH_START_ROOT times another checkout's `npm start` (a baseline: `git archive <commit> | tar -x`, node_modules linked). */
const START_ROOT = process.env.BENCH_START_ROOT ? path.resolve(process.env.BENCH_START_ROOT) : ROOT;
const LATER_BUDGET_S = 3;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

type Start = { seconds: number; phases: string[] };

/** Times one `npm start` of START_ROOT on `dataDir`, to /api/health answering 200. */
export async function timeStart(dataDir: string): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const at = () => ((performance.now() - started) / 1000).toFixed(1);
  const child = spawn(process.execPath, [path.join(START_ROOT, "scripts/start.mjs")], {
    cwd: START_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "debug",
      DATABASE_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const phases: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n"))
      if (line.trim()) phases.push(`${at()} s  ${line.trim().slice(0, 140)}`);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let healthy = false;
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (!done && !healthy) {
    await new Promise((r) => setTimeout(r, 50));
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      healthy = res.ok;
    } catch {}
  }
  const seconds = (performance.now() - started) / 1000;
  child.kill("SIGTERM");
  await exited;
  if (!healthy) throw new Error(`npm start never became healthy:\n${phases.join("\n")}`);
  return { seconds: Math.round(seconds * 10) / 10, phases };
}

export async function runStart(): Promise<boolean> {
  const runs = Number(process.env.BENCH_START_RUNS ?? 1);
  const rows: { run: number; first: Start; later: Start }[] = [];
  for (let run = 1; run <= runs; run++) {
    rmSync(path.join(START_ROOT, "dist/client"), { recursive: true, force: true });
    const dataDir = mkdtempSync(path.join(tmpdir(), "fidele-bench-start-"));
    try {
      const first = await timeStart(dataDir);
      const later = await timeStart(dataDir);
      rows.push({ run, first, later });
      console.log(
        `run ${run}: first start\n  ${first.phases.join("\n  ")}\nlater start\n  ${later.phases.join("\n  ")}`,
      );
    } finally {
      if (existsSync(dataDir)) rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const checks = rows.map((r) => ({
    ...r,
    ok: r.first.seconds <= FIRST_BUDGET_S && r.later.seconds <= LATER_BUDGET_S,
  }));
  console.log(
    table(
      ["run", "first start s (build included)", "later start s", "budget"],
      checks.map((r) => [r.run, r.first.seconds, r.later.seconds, r.ok ? "ok" : "FAIL"]),
    ),
  );
  console.log(`budget: first start ≤ ${FIRST_BUDGET_S} s, later ≤ ${LATER_BUDGET_S} s (to /api/health answering 200).`);
  writeResult("start", { root: START_ROOT, pgliteWorker: process.env.PGLITE_WORKER !== "0", rows: checks });
  return checks.every((r) => r.ok);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runStart().then(
    (ok) => process.exit(ok ? 0 : 1),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
