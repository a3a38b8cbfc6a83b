import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

/*
 * The embedded database's directory and whether it runs in a worker: light on purpose (node: modules only), so
 * that index.ts can take the lock and start the worker before the rest of the server loads (pglite-prestart.ts).
 */

/** Where the embedded database lives when DATA_DIR is not set (env.ts's default, read early by index.ts too). */
export const DEFAULT_DATA_DIR = "./data";

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
