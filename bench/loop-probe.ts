import { monitorEventLoopDelay } from "node:perf_hooks";
import { table } from "./lib.ts";

/**
 * The bench server's event-loop delay (issue 11 item 5: PGlite must not block HTTP). The server process
 * records it; each SIGUSR2 prints what was recorded since the last one as a JSON line on stdout and
 * starts over. The bench sends one before a run (to start clean) and one after it.
 */
export type LoopStats = { p50: number; p99: number; max: number };

export function installLoopProbe() {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const ms = (ns: number) => Math.round(ns / 1e5) / 10;
  process.on("SIGUSR2", () => {
    const loop: LoopStats = {
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
    };
    histogram.reset();
    process.stdout.write(`${JSON.stringify({ loop })}\n`);
  });
}

/** Prints the server's event-loop delay during each HTTP run. */
export function reportLoop(rows: { database: string; clients: number; loop?: LoopStats }[]) {
  const measured = rows.filter((r) => r.loop);
  if (!measured.length) return;
  console.log(
    table(
      ["database", "clients", "server event-loop delay p50 ms", "p99 ms", "max ms"],
      measured.map((r) => [r.database, r.clients, r.loop!.p50, r.loop!.p99, r.loop!.max]),
    ),
  );
  console.log(`PGlite: ${process.env.PGLITE_WORKER === "0" ? "main thread (PGLITE_WORKER=0)" : "worker thread"}`);
}
