import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { ROOT, table, writeResult } from "./lib.ts";
import { withFreshDatabase } from "./load.ts";
import type { ScaleWorld } from "./scale-server.ts";

/**
 * Issue 11: `npm run bench -- scale`. The real server in its own process (bench/scale-server.ts) on a fresh
 * PostgreSQL database holding one big shop (50,000 customers, ~500,000 scans, ~500,000 ledger rows, 5,010
 * redemptions) among 2,000 small ones, seeded reproducibly in SQL. Then, signed in through session cookies, over HTTP:
 * - every back-office read of the big shop (owner, platform admin) and every shopper read, BENCH_SCALE_RUNS times
 *   each (default 30) after one warm-up: p50 / p95 in ms; a few of the small shop's for comparison;
 * - the two CSV exports alone, then four at once (two of each) while a cheap GET (/api/health) is sent every
 *   50 ms: time, size, the server's RSS growth (peak during, minus before, after a GC) and its event-loop delay.
 * Budgets: every back-office read p95 < 200 ms; the 365-day dashboard < 300 ms; the four exports add < 100 MB with
 * event-loop delay p99 < 100 ms, and the cheap GET answers in < 200 ms (p95; its max is printed).
 * Database: BENCH_SCALE_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/fidele_perf_scale; dropped and
 * made again). The machine's load average is printed with the figures: on a shared machine they are noisy.
 */
const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/fidele_perf_scale";
const RUNS = Number(process.env.BENCH_SCALE_RUNS ?? 30);
const READ_BUDGET_MS = 200;
const DASHBOARD_BUDGET_MS = 300;
const EXPORTS_RSS_BUDGET_MB = 100;
const EXPORTS_DELAY_BUDGET_MS = 100;
const CHEAP_GET_BUDGET_MS = 200;

type Stats = { baseRss: number; rss: number; peakRss: number; delayP50: number; delayP99: number; delayMax: number };
type Read = { name: string; path: string; cookie: string; budget: number | null };

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? Number.NaN;
};
const load = () => loadavg()[0]!.toFixed(2);
const mb = (bytes: number) => bytes / 1e6;

function startServer(url: string) {
  const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", path.join(ROOT, "bench/scale-server.ts")], {
    cwd: ROOT,
    env: { ...process.env, BENCH_SCALE_DATABASE_URL: url, DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const lines = createInterface({ input: child.stdout! });
  const world = new Promise<ScaleWorld>((resolve, reject) => {
    // The world is the line with its seed time; the server may log a line of its own before it (a warning).
    lines.on("line", (line) => {
      const value = line.startsWith("{") ? (JSON.parse(line) as Partial<ScaleWorld>) : {};
      if (value.seedSeconds !== undefined) resolve(value as ScaleWorld);
    });
    child.once("exit", (code) => reject(new Error(`bench/scale-server.ts exited with ${code}`)));
  });
  const ask = <T>(type: string, answer: string) =>
    new Promise<T>((resolve) => {
      const on = (message: { type: string } & T) => {
        if (message.type !== answer) return;
        child.off("message", on);
        resolve(message);
      };
      child.on("message", on);
      child.send({ type });
    });
  return {
    world,
    mark: () => ask<{ rss: number }>("mark", "marked"),
    stats: () => ask<Stats>("read", "stats"),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export async function runScale(): Promise<boolean> {
  const adminUrl = process.env.BENCH_SCALE_DATABASE_URL ?? DEFAULT_URL;
  return withFreshDatabase(adminUrl, "fidele_perf_scale", async (url) => {
    const server = startServer(url);
    try {
      const w = await server.world;
      console.log(`seeded in ${w.seedSeconds.toFixed(1)} s: ${JSON.stringify(w.counts)} (load ${load()})`);
      const base = `http://127.0.0.1:${w.port}`;
      const get = async (p: string, cookie: string) => {
        const t0 = performance.now();
        const res = await fetch(`${base}${p}`, { headers: { cookie } });
        let bytes = 0;
        for await (const chunk of res.body ?? []) bytes += (chunk as Uint8Array).byteLength;
        return { status: res.status, ms: performance.now() - t0, bytes };
      };

      const b = `/api/backoffice/shops/${w.big.id}`;
      const s = `/api/backoffice/shops/${w.small.id}`;
      const o = w.big.ownerCookie;
      const bo = (name: string, p: string, budget = READ_BUDGET_MS): Read => ({ name, path: `${b}${p}`, cookie: o, budget });
      const reads: Read[] = [
        bo("shop", ""),
        bo("dashboard, 30 days", "/dashboard"),
        bo("dashboard, 365 days", "/dashboard?days=365", DASHBOARD_BUDGET_MS),
        bo("customers, page 1", "/customers"),
        bo("customers, page 100", "/customers?offset=4950"),
        bo("customers, by points", "/customers?sort=points"),
        bo("customers, by name", "/customers?sort=name&order=asc"),
        bo("customers, by name desc", "/customers?sort=name&order=desc"),
        bo("customers, search", "/customers?q=nom4242"),
        bo("customers, search (common)", "/customers?q=pr%C3%A9nom1"),
        bo("customer", `/customers/${w.big.cardId}`),
        bo("scans, page 1", "/scans"),
        bo("scans, flagged", "/scans?flagged=true"),
        bo("scans, refused", "/scans?outcome=cooldown"),
        bo("today", "/today"),
        // Issue 27: retention on the dashboard, and the automations page with its results over 30 and 90 days.
        bo("retention", "/retention"),
        bo("automations, 30 days", "/automations"),
        bo("automations, 90 days", "/automations?days=90"),
        bo("card", "/card"),
        bo("double points", "/double-points"),
        bo("hours", "/hours"),
        bo("team", "/team"),
        bo("rewards", "/rewards"),
        bo("reward", `/rewards/${w.big.rewardId}`),
        bo("reward settings", "/reward-settings"),
        bo("vip tiers", "/vip-tiers"),
        bo("owed", "/owed"),
        bo("redemptions", "/redemptions"),
        bo("redemptions, all", "/redemptions?status=all"),
        bo("prize lots", "/prize-lots"),
        bo("contests", "/contests"),
        bo("contest winnings", "/contest-winnings"),
        { name: "message composer", path: `/api/backoffice/shops/${w.big.id}/messages/composer`, cookie: o, budget: READ_BUDGET_MS },
        { name: "messages sent", path: `/api/backoffice/shops/${w.big.id}/messages`, cookie: o, budget: READ_BUDGET_MS },
        { name: "all customers (owner)", path: "/api/backoffice/customers", cookie: o, budget: READ_BUDGET_MS },
        { name: "customer profile", path: `/api/profiles/${w.shopper.id}`, cookie: o, budget: READ_BUDGET_MS },
        { name: "platform: shops", path: "/api/backoffice/platform/shops", cookie: w.adminCookie, budget: READ_BUDGET_MS },
        { name: "platform: overview", path: "/api/admin/overview", cookie: w.adminCookie, budget: READ_BUDGET_MS },
        { name: "platform: logs", path: "/api/admin/logs", cookie: w.adminCookie, budget: READ_BUDGET_MS },
        { name: "platform: users", path: "/api/admin/users", cookie: w.adminCookie, budget: READ_BUDGET_MS },
        // The shopper (a customer of the big shop and of small ones).
        ...(
          [
            ["shopper: cards", "/api/cards"],
            ["shopper: card", `/api/cards/${w.shopper.cardId}`],
            ["shopper: activity", "/api/cards/activity"],
            ["shopper: personal code", "/api/cards/personal-code"],
            ["shopper: redemptions", "/api/redemptions"],
            ["shopper: vip", "/api/rewards/vip"],
            ["shopper: shop page", `/api/shops/${w.big.slug}`],
            ["shopper: reward page", `/api/rewards/${w.big.rewardSlug}`],
            ["shopper: inbox", "/api/messages/inbox"],
            ["shopper: unread", "/api/messages/unread"],
            ["shopper: me", "/api/accounts/me"],
            ["shopper: contests", "/api/contests/mine"],
          ] as const
        ).map(([name, p]) => ({ name, path: p, cookie: w.shopper.cookie, budget: null })),
        // The small shop, for comparison.
        { name: "small: dashboard, 365 days", path: `${s}/dashboard?days=365`, cookie: w.small.ownerCookie, budget: null },
        { name: "small: customers", path: `${s}/customers`, cookie: w.small.ownerCookie, budget: null },
        { name: "small: scans", path: `${s}/scans`, cookie: w.small.ownerCookie, budget: null },
      ];

      const rows: { read: string; status: number; p50: number; p95: number; max: number; budget: number | null; ok: boolean }[] = [];
      for (const r of reads) {
        const first = await get(r.path, r.cookie);
        const times: number[] = [];
        for (let i = 0; i < RUNS; i++) times.push((await get(r.path, r.cookie)).ms);
        const p95 = quantile(times, 0.95);
        const ok = first.status === 200 && (r.budget === null || p95 < r.budget);
        rows.push({ read: r.name, status: first.status, p50: quantile(times, 0.5), p95, max: Math.max(...times), budget: r.budget, ok });
      }
      console.log(`\nreads (${RUNS} runs each, load ${load()})`);
      console.log(
        table(
          ["read", "status", "p50 ms", "p95 ms", "max ms", "budget", ""],
          rows.map((r) => [r.read, r.status, r.p50.toFixed(1), r.p95.toFixed(1), r.max.toFixed(1), r.budget ?? "—", r.ok ? "ok" : "OVER"]),
        ),
      );

      // The exports: alone, then four at once with a cheap GET every 50 ms.
      const exportPaths = { "customers.csv": `${b}/customers.csv`, "scans.csv": `${b}/scans.csv` };
      const exportsAlone: { file: string; ms: number; mb: number; rssMb: number; delayP99: number; delayMax: number }[] = [];
      for (const [file, p] of Object.entries(exportPaths)) {
        await server.mark();
        const r = await get(p, o);
        const st = await server.stats();
        exportsAlone.push({
          file,
          ms: r.ms,
          mb: mb(r.bytes),
          rssMb: mb(st.peakRss - st.baseRss),
          delayP99: st.delayP99,
          delayMax: st.delayMax,
        });
      }
      await server.mark();
      let running = true;
      const cheap: number[] = [];
      const pinger = (async () => {
        while (running) {
          cheap.push((await get("/api/health", "")).ms);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const t0 = performance.now();
      const four = await Promise.all(
        [exportPaths["customers.csv"], exportPaths["scans.csv"], exportPaths["customers.csv"], exportPaths["scans.csv"]].map((p) =>
          get(p, o),
        ),
      );
      const fourMs = performance.now() - t0;
      running = false;
      await pinger;
      const st4 = await server.stats();
      const fourRss = mb(st4.peakRss - st4.baseRss);
      const cheapP95 = quantile(cheap, 0.95);
      const cheapMax = Math.max(...cheap);
      console.log(`\nexports (load ${load()})`);
      console.log(
        table(
          ["export", "ms", "MB", "RSS +MB", "loop delay p99 ms", "max ms"],
          [
            ...exportsAlone.map((e) => [e.file, e.ms.toFixed(0), e.mb.toFixed(1), e.rssMb.toFixed(0), e.delayP99.toFixed(1), e.delayMax.toFixed(1)]),
            [
              "four at once",
              fourMs.toFixed(0),
              mb(four.reduce((n, r) => n + r.bytes, 0)).toFixed(1),
              fourRss.toFixed(0),
              st4.delayP99.toFixed(1),
              st4.delayMax.toFixed(1),
            ],
          ],
        ),
      );
      console.log(
        `cheap GET during the four: p50 ${quantile(cheap, 0.5).toFixed(1)} ms, p95 ${cheapP95.toFixed(1)} ms, max ${cheapMax.toFixed(1)} ms (${cheap.length} requests)`,
      );
      const exportsOk =
        four.every((r) => r.status === 200) &&
        fourRss < EXPORTS_RSS_BUDGET_MB &&
        st4.delayP99 < EXPORTS_DELAY_BUDGET_MS &&
        cheapP95 < CHEAP_GET_BUDGET_MS;
      console.log(
        `budget: four exports add < ${EXPORTS_RSS_BUDGET_MB} MB (${fourRss.toFixed(0)}), loop delay p99 < ${EXPORTS_DELAY_BUDGET_MS} ms (${st4.delayP99.toFixed(1)}), cheap GET p95 < ${CHEAP_GET_BUDGET_MS} ms (${cheapP95.toFixed(1)}): ${exportsOk ? "ok" : "OVER"}`,
      );
      const readsOk = rows.every((r) => r.ok);
      const file = writeResult("scale", {
        load: loadavg(),
        runs: RUNS,
        seedSeconds: w.seedSeconds,
        counts: w.counts,
        reads: rows,
        exportsAlone,
        fourExports: { ms: fourMs, rssMb: fourRss, delayP99: st4.delayP99, delayMax: st4.delayMax, cheapP95, cheapMax, cheapCount: cheap.length },
        ok: readsOk && exportsOk,
      });
      console.log(`→ ${path.relative(ROOT, file)}`);
      return readsOk && exportsOk;
    } finally {
      await server.stop();
    }
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runScale().then(
    (ok) => process.exit(ok ? 0 : 1),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
