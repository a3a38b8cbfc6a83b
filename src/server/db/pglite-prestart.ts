import path from "node:path";
import { lockDataDir, pgliteInWorker } from "./data-dir.ts";
import { RemotePGlite } from "./pglite-remote.ts";

/*
 * A later start's path to healthy is PGlite's open in its worker (~0.6 s on an idle machine), not the server's
 * modules (ADR 0037). index.ts therefore starts the worker before it imports anything else, and openDatabase takes
 * this worker instead of starting another: the open and the modules' loading overlap from the first millisecond.
 */

type Prestarted = { root: string; remote: RemotePGlite; release: () => void };
let prestarted: Prestarted | undefined;

/** Locks DATA_DIR and starts its PGlite worker, when the server will use the embedded database in a worker. */
export function prestartEmbeddedDatabase(env: { DATABASE_URL?: string; DATA_DIR: string }): void {
  if (env.DATABASE_URL || !pgliteInWorker() || prestarted) return;
  const root = path.resolve(env.DATA_DIR);
  const release = lockDataDir(root);
  const remote = new RemotePGlite({ dataDir: path.join(root, "pglite"), template: true });
  prestarted = { root, remote, release };
}

/** The worker started for `dataDir` (then it is the caller's), or undefined. */
export function takePrestarted(dataDir: string): Omit<Prestarted, "root"> | undefined {
  if (!prestarted || prestarted.root !== path.resolve(dataDir)) return undefined;
  const { remote, release } = prestarted;
  prestarted = undefined;
  return { remote, release };
}
