import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { pgliteOptions } from "./pglite-options.ts";
import { type PgliteLike, RemotePGlite } from "./pglite-remote.ts";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
/** Both drivers share Drizzle's PostgreSQL query builder; we type them as one. */
export type Db = NodePgDatabase<Schema>;
export type DatabaseKind = "pglite" | "postgresql";

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

export type DatabaseOptions =
  | { url: string; poolSize?: number }
  | { dataDir: string; worker?: boolean }
  | { memory: true; from?: Blob; worker?: boolean };

/**
 * Whether PGlite runs in a worker thread (the default) or on the main thread (PGLITE_WORKER=0, kept to
 * measure against and as a way back; ADR 0026).
 */
export function pgliteInWorker(): boolean {
  return process.env.PGLITE_WORKER !== "0";
}

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `Le dossier de données ${dir} est déjà utilisé par un autre processus Fidèle (PID ${pid}). ` +
        `Arrêtez-le ou choisissez un autre DATA_DIR.\n` +
        `The data directory ${dir} is already used by another Fidèle process (PID ${pid}). ` +
        `Stop it or choose another DATA_DIR.`,
    );
    this.name = "DataDirLockedError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite is one process's database: two instances on one directory both open and
 * lose data (STACK.md). A lock file with our PID guards the directory; a stale lock
 * (its process is gone) is taken over.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, "fidele.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        rmSync(lockFile, { force: true });
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number.parseInt(readFileSync(lockFile, "utf8"), 10);
      if (Number.isFinite(pid) && pid !== process.pid && isAlive(pid)) {
        throw new DataDirLockedError(dir, pid);
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

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
      const remote = new RemotePGlite({ dataDir, loadDataDir: from });
      pglite = remote;
      await remote.waitReady;
    } else {
      const local = new PGlite(
        pgliteOptions(dataDir ? { dataDir } : "from" in options && options.from ? { loadDataDir: options.from } : {}),
      );
      pglite = local;
      await local.waitReady;
    }
  } catch (error) {
    release?.();
    throw error;
  }
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
