import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import { createInterface } from "node:readline";
import { spawnBuiltServer, stopChild } from "./lib.ts";
import { BENCH_SECRET } from "./scan-server.ts";

/**
 * The platform bench's servers (bench/platform.ts): the built server started as deployed, its event-loop delay from
 * /metrics, the CPU and memory of the servers and of PostgreSQL's backends from /proc, and the wait for quiet after a
 * start.
 */
export const APP_URL = "http://127.0.0.1";
/**
 * The start-up work (the jobs' first passes over every shop: on a fresh copy of the seed, the retention fold of every
 * shop's year) is no peak hour's: the steps wait until the servers and the database are quiet — under
 * QUIET_CPU_PERCENT of one core together over a 5 s window — for at most this many seconds.
 */
const SETTLE_SECONDS = Number(process.env.BENCH_PLATFORM_SETTLE_SECONDS ?? 900);
const QUIET_CPU_PERCENT = 15;
export const round1 = (v: number) => Math.round(v * 10) / 10;

/** One HTTP request on 127.0.0.1, a JSON body if given; the status (0: no answer) and the answer's text. */
export function httpText(
  options: http.RequestOptions & { port: number; path: string },
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        ...options,
        headers: {
          ...options.headers,
          ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        res.on("error", () => resolve({ status: 0, text: "" }));
      },
    );
    req.on("error", (e) => resolve({ status: 0, text: String(e) }));
    req.end(payload);
  });
}

export type Proc = { child: ChildProcess; port: number; errors: string[]; serverErrors: number; exited: Promise<void> };

/**
 * The server as deployed (the built bundle, production, LOG_LEVEL info: a line per request), up when its job engine is.
 * Its request lines are read only for 5xx answers (kept, a few, with their route) and dropped.
 */
export async function startProcess(env: Record<string, string>): Promise<Proc> {
  const { child, port } = await spawnBuiltServer({
    APP_URL,
    LOG_LEVEL: "info",
    SECRET: BENCH_SECRET,
    TRUST_PROXY: "1",
    METRICS_TOKEN,
    ...env,
  });
  const proc: Proc = {
    child,
    port,
    errors: [],
    serverErrors: 0,
    exited: new Promise((resolve) => child.once("exit", () => resolve())),
  };
  const kill = () => child.kill("SIGKILL");
  process.once("exit", kill);
  void proc.exited.then(() => process.removeListener("exit", kill));
  let up: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    up = resolve;
  });
  const onLine = (line: string) => {
    if (line.includes("jobs: engine started")) up();
    if (/"status":5\d\d/.test(line) || /"level":"error"/.test(line) || line.startsWith("Error")) {
      proc.serverErrors++;
      if (proc.errors.length < 20) proc.errors.push(line.slice(0, 600));
    }
  };
  createInterface({ input: child.stdout! }).on("line", onLine);
  createInterface({ input: child.stderr! }).on("line", onLine);
  await Promise.race([
    started,
    proc.exited.then(() => {
      throw new Error(`server exited at start: ${proc.errors.join("\n")}`);
    }),
    new Promise((_, reject) => setTimeout(() => reject(new Error("server start timed out")), 600_000)),
  ]);
  return proc;
}

export const stopProcess = (proc: Proc) => stopChild(proc.child, proc.exited);

const METRICS_TOKEN = "bench-platform-metrics";

/**
 * Each server's event-loop delay since the last call (p99 and max, ms), from its /metrics: prom-client's histogram
 * of monitorEventLoopDelay is reset at every scrape. A request waits this long before its handler even runs.
 */
export async function loopDelays(procs: Proc[]): Promise<{ p99Ms: number; maxMs: number }[]> {
  return Promise.all(
    procs.map(async (p) => {
      const { text } = await httpText({
        port: p.port,
        path: "/metrics",
        method: "GET",
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      const read = (name: string) =>
        round1(Number(new RegExp(`^${name} ([0-9.e+-]+)`, "m").exec(text)?.[1] ?? Number.NaN) * 1000);
      return { p99Ms: read("nodejs_eventloop_lag_p99_seconds"), maxMs: read("nodejs_eventloop_lag_max_seconds") };
    }),
  );
}

/* ── CPU and memory, from /proc ───────────────────────────────────────────────────────────────────────────── */

const TICK = 100; // clock ticks per second (Linux's USER_HZ)
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICK;
  } catch {
    return 0;
  }
}
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}
/** PostgreSQL's backends serving `dbName` (their command line names the database). */
function backendsOf(dbName: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (cmd.startsWith("postgres: ") && cmd.includes(` ${dbName} `)) pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

/** CPU % (of one core) and peak RSS of each server process, PostgreSQL's backends of the database, and this driver. */
export function resourceMeter(procs: Proc[], dbName: string | null) {
  const pids = procs.map((p) => p.child.pid!);
  const peak = pids.map(() => 0);
  const pgStart = new Map<number, number>();
  const track = () => {
    if (!dbName) return;
    for (const pid of backendsOf(dbName)) if (!pgStart.has(pid)) pgStart.set(pid, cpuSeconds(pid));
  };
  track();
  const before = pids.map(cpuSeconds);
  const self = process.cpuUsage();
  const t0 = performance.now();
  const timer = setInterval(() => {
    pids.forEach((pid, i) => {
      peak[i] = Math.max(peak[i]!, rssMb(pid));
    });
    track();
  }, 500);
  return () => {
    clearInterval(timer);
    const seconds = (performance.now() - t0) / 1000;
    const pct = (s: number) => Math.round((s / seconds) * 100);
    let pgCpu = 0;
    for (const [pid, start] of pgStart) pgCpu += Math.max(0, cpuSeconds(pid) - start);
    const mine = process.cpuUsage(self);
    return {
      servers: pids.map((pid, i) => ({
        cpuPercent: pct(cpuSeconds(pid) - before[i]!),
        rssMb: Math.round(Math.max(peak[i]!, rssMb(pid))),
      })),
      postgresCpuPercent: dbName ? pct(pgCpu) : null,
      driverCpuPercent: pct((mine.user + mine.system) / 1e6),
    };
  };
}

/**
 * Waits until the servers and PostgreSQL's backends use under QUIET_CPU_PERCENT of a core together over 5 s, at most
 * SETTLE_SECONDS; the seconds it took, or null.
 */
export async function settle(procs: Proc[], dbName: string | null): Promise<number | null> {
  const t0 = performance.now();
  while ((performance.now() - t0) / 1000 < SETTLE_SECONDS) {
    const meter = resourceMeter(procs, dbName);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const r = meter();
    const cpu = r.servers.reduce((n, x) => n + x.cpuPercent, 0) + (r.postgresCpuPercent ?? 0);
    if (cpu < QUIET_CPU_PERCENT) {
      const seconds = Math.round((performance.now() - t0) / 1000);
      console.log(`  quiet after ${seconds} s`);
      return seconds;
    }
  }
  console.log(`  not quiet after ${SETTLE_SECONDS} s: the steps start anyway`);
  return null;
}
