import { rmSync } from "node:fs";
import { runBundle } from "./bundle.ts";
import { runFelt } from "./felt.ts";
import { runImport } from "./import.ts";
import { ensureBuild } from "./lib.ts";
import { runLighthouse } from "./lighthouse.ts";
import { runMessages } from "./messages.ts";
import { runPlatform } from "./platform.ts";
import { runRedeem } from "./redeem.ts";
import { runScale } from "./scale.ts";
import { runScan } from "./scan.ts";
import { runStart } from "./start.ts";

/**
 * `npm run bench`: every benchmark of the project, one after the other, on one
 * production build. Each returns true when it met its budget; results land in
 * bench/results/*.json. Add a benchmark by appending to BENCHMARKS.
 * Run one by name: `npm run bench -- lighthouse`.
 */
type Benchmark = { name: string; run: () => Promise<boolean>; noBuild?: boolean };

const BENCHMARKS: Benchmark[] = [
  { name: "bundle", run: runBundle },
  { name: "lighthouse", run: runLighthouse },
  { name: "felt", run: runFelt },
  { name: "scan", run: runScan },
  { name: "redeem", run: runRedeem },
  { name: "messages", run: runMessages },
  { name: "scale", run: runScale },
  { name: "platform", run: runPlatform, noBuild: true }, // the API only: the load sends no page request
  { name: "import", run: runImport, noBuild: true },
  { name: "start", run: runStart, noBuild: true }, // it times npm start's own builds
];

const only = process.argv.slice(2);
const selected = only.length ? BENCHMARKS.filter((b) => only.includes(b.name)) : BENCHMARKS;
if (only.length && selected.length !== only.length) {
  console.error(
    `unknown benchmark: ${only.filter((n) => !BENCHMARKS.some((b) => b.name === n)).join(", ")} (known: ${BENCHMARKS.map((b) => b.name).join(", ")})`,
  );
  process.exit(2);
}

const presetBuild = process.env.BENCH_CLIENT_DIR;
// The production build the benchmarks serve (not the start benchmark: it times npm start's own builds).
const buildDir = selected.some((b) => !b.noBuild) ? ensureBuild() : undefined;
const outcomes: { name: string; ok: boolean; seconds: number; error?: string }[] = [];
for (const bench of selected) {
  console.log(`\n━━ ${bench.name} ━━`);
  const started = Date.now();
  try {
    outcomes.push({ name: bench.name, ok: await bench.run(), seconds: (Date.now() - started) / 1000 });
  } catch (error) {
    console.error(error);
    outcomes.push({ name: bench.name, ok: false, seconds: (Date.now() - started) / 1000, error: String(error) });
  }
}
if (buildDir && !presetBuild && !process.env.BENCH_KEEP_BUILD) rmSync(buildDir, { recursive: true, force: true });

console.log("\n━━ summary ━━");
for (const o of outcomes)
  console.log(`${o.ok ? "ok  " : "FAIL"} ${o.name} (${o.seconds.toFixed(0)} s)${o.error ? `: ${o.error}` : ""}`);
process.exit(outcomes.every((o) => o.ok) ? 0 : 1);
