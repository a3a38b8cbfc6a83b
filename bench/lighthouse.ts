import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import lighthouse from "lighthouse";
import { CHROMIUM_ARGS, CHROMIUM_PATH, assertChromium } from "../tests/setup/chromium.ts";
import { ensureBuild, ROOT, serveBuild, table, writeResult } from "./lib.ts";

/**
 * Lighthouse 12 (mobile form factor, default simulated throttling) on a production
 * build served by the real server, for / and /login. Issue 3 budget: performance,
 * accessibility and best practices ≥ 95. Each page is measured RUNS times (env
 * BENCH_LIGHTHOUSE_RUNS, default 3; the pages take turns, so a busy spell of the machine
 * does not land on one page only) and the median run (by performance) is kept.
 *
 * Simulated throttling multiplies the CPU time it observes by 4: on a machine slower than
 * Lighthouse assumes, or busy with other work, scores read low. Lighthouse calls a machine
 * slow below a benchmark index of 1000 (its SLOW_CPU_BENCHMARK_INDEX_THRESHOLD): each run's
 * index is reported beside its scores, so a low score can be told from a slow machine.
 */
const PAGES = ["/", "/login"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const BUDGET: Partial<Record<(typeof CATEGORIES)[number], number>> = { performance: 95, accessibility: 95, "best-practices": 95 };
const RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.once("error", reject);
  });
}

/** Chromium with the DevTools port open, for Lighthouse's `port` option (as chrome-launcher would start it). */
async function launchDebuggableChromium(): Promise<{ port: number; child: ChildProcess; close: () => Promise<void> }> {
  assertChromium();
  const port = await freePort();
  const userDataDir = mkdtempSync(path.join(tmpdir(), "fidele-lh-profile-"));
  const child = spawn(
    CHROMIUM_PATH,
    [
      ...CHROMIUM_ARGS,
      "--headless=new",
      `--remote-debugging-port=${port}`,
      "--remote-debugging-address=127.0.0.1",
      `--user-data-dir=${userDataDir}`,
      "--no-default-browser-check",
      "--disable-extensions",
      "--disable-default-apps",
      "--mute-audio",
      "about:blank",
    ],
    { stdio: "ignore" },
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error("Chromium did not open its DevTools port within 30 s");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    port,
    child,
    close: async () => {
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill();
      });
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

type Scores = Record<(typeof CATEGORIES)[number], number>;
type FailedAudit = { id: string; title: string; score: number | null; category: string; items: string[] };
type Run = { scores: Scores; metrics: Record<string, number>; failedAudits: FailedAudit[]; benchmarkIndex: number };

/** Lighthouse's own threshold for "this machine's CPU is slower than expected" (core/gather/driver/environment.js). */
const SLOW_CPU_BENCHMARK_INDEX = 1000;

/** What an audit points at (an element, a file, an issue), so a failure says where to look. */
function describeItems(details: unknown): string[] {
  const items = (details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
  return items.slice(0, 8).map((item) => {
    const node = item.node as { snippet?: string; selector?: string; explanation?: string } | undefined;
    if (node) return `${node.selector ?? ""} ${node.snippet ?? ""}${node.explanation ? ` — ${node.explanation.split("\n")[0]}` : ""}`.trim();
    const sub = (item.subItems as { items?: Record<string, unknown>[] } | undefined)?.items?.[0];
    const parts = [item.url, item.issueType, item.source, item.description, item.label, sub ? JSON.stringify(sub).slice(0, 160) : undefined];
    return parts.filter((p) => typeof p === "string" && p).join(" ") || JSON.stringify(item).slice(0, 200);
  });
}

/** One Lighthouse run; a run whose trace failed (NO_NAVSTART, NO_FCP… seen on a busy machine) is retried twice. */
async function audit(url: string, port: number, attempt = 1): Promise<Run> {
  const result = await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: [...CATEGORIES], formFactor: "mobile" });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) {
    if (attempt < 3) {
      console.log(`  (${url}: ${lhr.runtimeError.code}, run again)`);
      return audit(url, port, attempt + 1);
    }
    throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  }
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as Scores;
  const metricIds = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"];
  const metrics = Object.fromEntries(metricIds.map((id) => [id, lhr.audits[id]?.numericValue ?? Number.NaN]));
  const failedAudits: FailedAudit[] = [];
  for (const category of CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (!a || ref.weight === 0 || a.score === null || a.score >= 0.9) continue;
      failedAudits.push({ id: a.id, title: a.title, score: a.score, category, items: describeItems(a.details) });
    }
  }
  return { scores, metrics, failedAudits, benchmarkIndex: Math.round(lhr.environment.benchmarkIndex) };
}

export async function runLighthouse(): Promise<boolean> {
  const clientDir = ensureBuild();
  const { baseUrl, server } = await serveBuild(clientDir);
  const chromium = await launchDebuggableChromium();
  const pages: { path: string; runs: Run[]; median: Run }[] = [];
  try {
    // One warm-up load so the server's first-request costs (lazy imports, database pages) are not measured.
    await fetch(`${baseUrl}/`);
    await fetch(`${baseUrl}/api/accounts/me`);
    const runsByPage = new Map<string, Run[]>(PAGES.map((p) => [p, []]));
    for (let i = 0; i < RUNS; i++) {
      for (const pagePath of PAGES) runsByPage.get(pagePath)!.push(await audit(`${baseUrl}${pagePath}`, chromium.port));
    }
    for (const [pagePath, runs] of runsByPage) {
      const sorted = [...runs].sort((a, b) => a.scores.performance - b.scores.performance);
      pages.push({ path: pagePath, runs, median: sorted[Math.floor(sorted.length / 2)]! });
    }
  } finally {
    await chromium.close();
    await server.close();
  }

  console.log(`\nLighthouse ${RUNS > 1 ? `(median of ${RUNS} runs) ` : ""}— mobile, simulated throttling`);
  console.log(
    table(
      ["page", ...CATEGORIES, "FCP ms", "LCP ms", "TBT ms", "CLS", "SI ms", "CPU index"],
      pages.map((p) => [
        p.path,
        ...CATEGORIES.map((c) => p.median.scores[c]),
        Math.round(p.median.metrics["first-contentful-paint"]!),
        Math.round(p.median.metrics["largest-contentful-paint"]!),
        Math.round(p.median.metrics["total-blocking-time"]!),
        p.median.metrics["cumulative-layout-shift"]!.toFixed(3),
        Math.round(p.median.metrics["speed-index"]!),
        p.median.benchmarkIndex,
      ]),
    ),
  );
  for (const p of pages) {
    console.log(`${p.path} runs (performance @ CPU index): ${p.runs.map((r) => `${r.scores.performance} @ ${r.benchmarkIndex}`).join(", ")}`);
  }
  const slowRuns = pages.flatMap((p) => p.runs).filter((r) => r.benchmarkIndex < SLOW_CPU_BENCHMARK_INDEX).length;
  if (slowRuns) {
    console.log(
      `warning: ${slowRuns} run(s) had a CPU benchmark index under ${SLOW_CPU_BENCHMARK_INDEX}: Lighthouse finds this machine slower than it expects (busy or slow), and its 4x CPU slowdown then over-throttles: performance reads low.`,
    );
  }
  const failures: string[] = [];
  for (const p of pages) {
    for (const [category, min] of Object.entries(BUDGET)) {
      const score = p.median.scores[category as keyof Scores];
      if (score < min) failures.push(`${p.path}: ${category} ${score} < ${min}`);
    }
    if (p.median.failedAudits.length) {
      console.log(`\n${p.path} — audits losing points:`);
      for (const a of p.median.failedAudits) {
        console.log(`  [${a.category}] ${a.id} (${Math.round((a.score ?? 0) * 100)}): ${a.title}`);
        if (a.category !== "performance") for (const item of a.items) console.log(`      ${item}`);
      }
    }
  }
  const file = writeResult("lighthouse", {
    runsPerPage: RUNS,
    budget: BUDGET,
    pages: pages.map((p) => ({ path: p.path, median: p.median, runs: p.runs.map((r) => ({ ...r.scores, benchmarkIndex: r.benchmarkIndex })) })),
    failures,
  });
  console.log(`results: ${path.relative(ROOT, file)}`);
  for (const f of failures) console.error(`FAIL ${f}`);
  return failures.length === 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const ok = await runLighthouse();
  process.exit(ok ? 0 : 1);
}
