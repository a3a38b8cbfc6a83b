import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { lockDataDir, pgliteInWorker } from "./data-dir.ts";
import { pgliteOptions } from "./pglite-options.ts";
import { takePrestarted } from "./pglite-prestart.ts";
import { type PgliteLike, RemotePGlite } from "./pglite-remote.ts";
import * as schema from "./schema/index.ts";

type Schema = typeof schema;
/** Both drivers share Drizzle's PostgreSQL query builder; we type them as one. */
export type Db = NodePgDatabase<Schema>;
type DatabaseKind = "pglite" | "postgresql";

export type Database = {
  db: Db;
  kind: DatabaseKind;
  /**
   * Runs raw SQL (the database functions' calls, migrations, benchmarks, the job engine). By default the
   * PGlite lives in a worker thread and this is the handle on it (docs/decisions/0026).
   */
  pglite?: PgliteLike;
  pool?: pg.Pool;
  /** The server's address (PostgreSQL only): the job engine opens its own small pool on it. */
  url?: string;
  close: () => Promise<void>;
};

type DatabaseOptions =
  | { url: string; poolSize?: number }
  /** `template`: a new directory starts migrated, from the committed template (the server's database only). */
  | { dataDir: string; worker?: boolean; template?: boolean }
  | { memory: true; from?: Blob; worker?: boolean };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ("url" in options) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle connection the server closed (a restart, a failover, `drop database … with (force)`) is
    // emitted here; unhandled, it would end the process. The pool opens a new one for the next query.
    pool.on("error", (error) => {
      process.emitWarning(`PostgreSQL: an idle connection ended (${error.message})`, { code: "FIDELE_PG_IDLE" });
    });
    const db = drizzlePg(pool, { schema, casing: "snake_case" });
    return { db, kind: "postgresql", pool, url: options.url, close: () => pool.end() };
  }
  let release: (() => void) | undefined;
  let pglite: PgliteLike;
  const dataDir = "dataDir" in options ? path.resolve(options.dataDir, "pglite") : undefined;
  // The lock is this process's, taken on the main thread before the worker opens the directory.
  if ("dataDir" in options) release = lockDataDir(path.resolve(options.dataDir));
  try {
    if (options.worker ?? pgliteInWorker()) {
      const from = "from" in options && options.from ? await options.from.arrayBuffer() : undefined;
      const remote = new RemotePGlite({
        dataDir,
        loadDataDir: from,
        template: "template" in options && options.template,
      });
      pglite = remote;
      await remote.waitReady;
    } else {
      const local = new PGlite(
        pgliteOptions(
          dataDir ? { dataDir } : "from" in options && options.from ? { loadDataDir: options.from } : {},
          "template" in options && options.template,
        ),
      );
      pglite = local;
      await local.waitReady;
    }
  } catch (error) {
    release?.();
    throw error;
  }
  return pgliteDatabase(pglite, release);
}

function pgliteDatabase(pglite: PgliteLike, release?: () => void): Database {
  const db = drizzlePglite(pglite as PGlite, { schema, casing: "snake_case" }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    pglite,
    close: async () => {
      await pglite.close();
      release?.();
    },
  };
}

/**
 * The embedded database whose worker index.ts started before loading the server (pglite-prestart.ts), as a
 * Database at once: its statements wait in the worker's queue until PGlite is open (`ready`), so the server can
 * build what needs only the handle (better-auth, the job engine) meanwhile. Undefined when none was started.
 */
export function prestartedDatabase(dataDir: string): { database: Database; ready: Promise<void> } | undefined {
  const early = takePrestarted(dataDir);
  if (!early) return undefined;
  const ready = early.remote.waitReady.catch((error: unknown) => {
    early.release();
    throw error;
  });
  return { database: pgliteDatabase(early.remote, early.release), ready };
}
