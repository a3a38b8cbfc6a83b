import { monitorEventLoopDelay } from "node:perf_hooks";
import { table } from "./lib.ts";

/**
 * The bench server's event-loop delay (issue 11 item 5: PGlite must not block HTTP). The server process
 * records it; each SIGUSR2 prints what was recorded since the last one as a JSON line on stdout and
 * starts over. The bench sends one before a run (to start clean) and one after it.
 */
export type LoopStats = {
  p50: number;
  p99: number;
  max: number;
  /** The server process's CPU time (user + system) since the last probe, in ms: divided by the requests, its cost. */
  cpuMs?: number;
  /** Of which in the kernel (sockets above all). */
  systemMs?: number;
};

export function installLoopProbe() {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const ms = (ns: number) => Math.round(ns / 1e5) / 10;
  let cpu = process.cpuUsage();
  process.on("SIGUSR2", () => {
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const loop: LoopStats = {
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      cpuMs: Math.round((used.user + used.system) / 1000),
      systemMs: Math.round(used.system / 1000),
    };
    histogram.reset();
    process.stdout.write(`${JSON.stringify({ loop })}\n`);
  });
}

/**
 * Prints the server's event-loop delay during each HTTP run, and its process's CPU time per request (warm-up
 * included: the probe spans it; on PGlite its engine's worker thread too), which other work on the machine
 * inflates far less than throughput: the figure to compare between two versions.
 */
export function reportLoop(
  rows: { database: string; clients: number; loop?: LoopStats; http: { requests: number; warmups: number } }[],
) {
  const measured = rows.filter((r) => r.loop);
  if (!measured.length) return;
  const perRequest = (r: (typeof measured)[number], ms: number | undefined) =>
    ms === undefined ? "—" : Math.round((ms * 1000) / (r.http.requests + r.http.warmups));
  console.log(
    table(
      [
        "database",
        "clients",
        "server event-loop delay p50 ms",
        "p99 ms",
        "max ms",
        "server process CPU µs/request",
        "of which kernel",
      ],
      measured.map((r) => [
        r.database,
        r.clients,
        r.loop!.p50,
        r.loop!.p99,
        r.loop!.max,
        perRequest(r, r.loop!.cpuMs),
        perRequest(r, r.loop!.systemMs),
      ]),
    ),
  );
  console.log(`PGlite: ${process.env.PGLITE_WORKER === "0" ? "main thread (PGLITE_WORKER=0)" : "worker thread"}`);
}
