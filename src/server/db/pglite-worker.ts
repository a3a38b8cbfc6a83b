/*
 * The thread that owns the embedded database (docs/decisions/0026): PGlite runs here, so its WASM work
 * never blocks the main thread's event loop. The main thread talks to it with messages (pglite-remote.ts).
 * Loaded by Node's own type stripping as well as by tsx: erasable TypeScript only, packages only (no app
 * modules but pglite-options.ts, itself packages only), so it starts fast.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { pgliteOptions } from "./pglite-options.ts";

/** `template`: a new dataDir starts from the committed template (pglite-options.ts). */
export type WorkerInit = { dataDir?: string; loadDataDir?: ArrayBuffer; template?: boolean };

/** A request from the main thread; `tx` names an open transaction (its statements go to it). */
export type Request = { id: number } & (
  | { op: "query"; sql: string; params?: unknown[]; rowMode?: "array" | "object"; rawOids?: number[]; tx?: number }
  | { op: "exec"; sql: string; tx?: number }
  | { op: "begin" }
  | { op: "commit"; tx: number }
  | { op: "rollback"; tx: number }
  | { op: "listen"; channel: string }
  | { op: "unlisten"; listener: number }
  | { op: "migrate"; folder: string; script: string }
  | { op: "dump"; compression: "none" | "gzip" | "auto" }
  | { op: "close" }
);

export type Reply =
  | { type: "ready" }
  | { type: "init-error"; error: SerializedError }
  | { type: "result"; id: number; value: unknown }
  | { type: "error"; id: number; error: SerializedError }
  | { type: "notify"; listener: number; payload: string };

export type SerializedError = { name: string; message: string; stack?: string; props: Record<string, unknown> };

/** Errors cross as plain data: the message, the stack and every plain field (code, detail, constraint…). */
function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error), props: {} };
  const props: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ["string", "number", "boolean", "undefined"].includes(typeof value)) props[key] = value;
  }
  return { name: error.name, message: error.message, stack: error.stack, props };
}

type OpenTx = { tx: Transaction; finish: (commit: boolean) => void; done: Promise<unknown> };

async function main() {
  const port = parentPort;
  if (!port) throw new Error("pglite-worker.ts runs in a worker thread");
  const init = workerData as WorkerInit;
  let pglite: PGlite;
  try {
    pglite = new PGlite(
      pgliteOptions(
        init.dataDir
          ? { dataDir: init.dataDir }
          : init.loadDataDir
            ? { loadDataDir: new Blob([init.loadDataDir]) }
            : {},
        init.template,
      ),
    );
    await pglite.waitReady;
  } catch (error) {
    port.postMessage({ type: "init-error", error: serializeError(error) } satisfies Reply);
    return;
  }
  const db = pglite;
  const txs = new Map<number, OpenTx>();
  const listeners = new Map<number, () => Promise<void>>();
  let nextTx = 1;
  let nextListener = 1;
  /** Identity parsers for the type ids the caller wants as raw strings (Drizzle's dates, intervals…). */
  const parserSets = new Map<string, Record<number, (value: string) => string>>();
  const parsersFor = (oids: number[]) => {
    const key = oids.join(",");
    let set = parserSets.get(key);
    if (!set) {
      set = Object.fromEntries(oids.map((oid) => [oid, (value: string) => value]));
      parserSets.set(key, set);
    }
    return set;
  };
  const target = (tx: number | undefined) => {
    if (tx === undefined) return db;
    const open = txs.get(tx);
    if (!open) throw new Error(`transaction ${tx} is not open`);
    return open.tx;
  };

  const handle = async (req: Request): Promise<{ value: unknown; transfer?: ArrayBuffer[] }> => {
    switch (req.op) {
      case "query": {
        const res = await target(req.tx).query(req.sql, req.params, {
          rowMode: req.rowMode,
          ...(req.rawOids ? { parsers: parsersFor(req.rawOids) } : {}),
        });
        return { value: { rows: res.rows, fields: res.fields, affectedRows: res.affectedRows } };
      }
      case "exec": {
        const results = await target(req.tx).exec(req.sql);
        return { value: results.map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows })) };
      }
      case "begin": {
        const id = nextTx++;
        return await new Promise((resolve, reject) => {
          const done = db
            .transaction(
              (tx) =>
                new Promise<void>((commit, rollback) => {
                  txs.set(id, {
                    tx,
                    done,
                    finish: (ok) => (ok ? commit() : rollback(new Error("rolled back by the main thread"))),
                  });
                  resolve({ value: id });
                }),
            )
            .finally(() => txs.delete(id));
          done.catch(reject);
        });
      }
      case "commit":
      case "rollback": {
        const open = txs.get(req.tx);
        if (!open) throw new Error(`transaction ${req.tx} is not open`);
        open.finish(req.op === "commit");
        if (req.op === "commit") await open.done;
        else await open.done.catch(() => {});
        return { value: null };
      }
      case "listen": {
        const id = nextListener++;
        const unsubscribe = await db.listen(req.channel, (payload) => {
          port.postMessage({ type: "notify", listener: id, payload } satisfies Reply);
        });
        listeners.set(id, unsubscribe);
        return { value: id };
      }
      case "unlisten": {
        const unsubscribe = listeners.get(req.listener);
        listeners.delete(req.listener);
        await unsubscribe?.();
        return { value: null };
      }
      case "migrate": {
        await migrate(drizzle(db), { migrationsFolder: req.folder });
        await db.exec(req.script);
        return { value: null };
      }
      case "dump": {
        const buffer = await (await db.dumpDataDir(req.compression)).arrayBuffer();
        return { value: buffer, transfer: [buffer] };
      }
      case "close": {
        await db.close();
        return { value: null };
      }
    }
  };

  port.on("message", (req: Request) => {
    handle(req).then(
      ({ value, transfer }) => port.postMessage({ type: "result", id: req.id, value } satisfies Reply, transfer ?? []),
      (error: unknown) => port.postMessage({ type: "error", id: req.id, error: serializeError(error) } satisfies Reply),
    );
  });
  port.postMessage({ type: "ready" } satisfies Reply);
}

if (parentPort) void main();
