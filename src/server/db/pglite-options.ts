/*
 * How Fidèle opens PGlite, in the worker thread (pglite-worker.ts) and on the main thread alike. Packages only,
 * erasable TypeScript: the worker loads it with Node's own type stripping.
 */
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";

/**
 * PGlite's own start parameters, plus `wal_init_zero=off`: PostgreSQL writes 16 MB of zeros into each new WAL
 * segment, which on PGlite's file system stalls every query for 30–75 ms once per ~2,500 scans (issue 11: a scan's
 * p99 at 16 clients). Off only skips filling the file ahead of use (PostgreSQL documents it for copy-on-write file
 * systems); what is written and when it is flushed do not change.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "wal_init_zero=off"];

export function pgliteOptions(extra: PGliteOptions = {}): PGliteOptions {
  return { ...extra, startParams: PGLITE_START_PARAMS };
}
