import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
/** Both drivers share Drizzle's PostgreSQL query builder; we type them as one. */
export type Db = NodePgDatabase<Schema>;
export type DatabaseKind = "pglite" | "postgresql";

export type Database = {
  db: Db;
  kind: DatabaseKind;
  /** Runs raw SQL (used by migrations, benchmarks and LISTEN). */
  pglite?: PGlite;
  pool?: pg.Pool;
  /** The server's address (PostgreSQL only): the job engine opens its own small pool on it. */
  url?: string;
  close: () => Promise<void>;
};

export type DatabaseOptions =
  | { url: string; poolSize?: number }
  | { dataDir: string }
  | { memory: true; from?: Blob };

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
    const db = drizzlePg(pool, { schema, casing: "snake_case" });
    return { db, kind: "postgresql", pool, url: options.url, close: () => pool.end() };
  }
  let release: (() => void) | undefined;
  let pglite: PGlite;
  if ("dataDir" in options) {
    const dir = path.resolve(options.dataDir, "pglite");
    release = lockDataDir(path.resolve(options.dataDir));
    pglite = new PGlite(dir);
  } else {
    pglite = new PGlite(options.from ? { loadDataDir: options.from } : {});
  }
  await pglite.waitReady;
  const db = drizzlePglite(pglite, { schema, casing: "snake_case" }) as unknown as Db;
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
