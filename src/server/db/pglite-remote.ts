import { Worker } from "node:worker_threads";
import type { Reply, Request, SerializedError, WorkerInit } from "./pglite-worker.ts";

/*
 * The main thread's handle on the PGlite that lives in a worker thread (pglite-worker.ts,
 * docs/decisions/0026). It has the part of PGlite's interface the app uses — query, exec, transaction,
 * listen, dumpDataDir, close — so Drizzle's PGlite driver, pg-boss's `fromPglite` adapter and the raw
 * calls of the database functions work on it unchanged. The worker's PGlite keeps its own order: one
 * statement at a time, one transaction at a time, statements outside it waiting for it (STACK.md).
 */

type Results<T> = { rows: T[]; fields: { name: string; dataTypeID: number }[]; affectedRows?: number };
type QueryOptions = {
  rowMode?: "array" | "object";
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
};

/** Either a PGlite instance (in this thread) or the handle on one in the worker: the calls the app makes. */
export interface PgliteLike {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results<unknown>[]>;
  transaction<T>(callback: (tx: PgliteTxLike) => Promise<T>): Promise<T>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  dumpDataDir(compression?: "none" | "gzip" | "auto"): Promise<Blob | File>;
  close(): Promise<void>;
}
interface PgliteTxLike {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results<unknown>[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

type Op = Request extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

function reviveError(e: SerializedError): Error {
  const error = new Error(e.message);
  error.name = e.name;
  if (e.stack) error.stack = e.stack;
  Object.assign(error, e.props);
  return error;
}

/**
 * Parsers cannot cross threads: a caller may only ask for some types as raw text (identity parsers,
 * which is all Drizzle's driver sets); anything else is refused rather than silently ignored.
 */
function rawOidsOf(parsers: QueryOptions["parsers"]): number[] | undefined {
  if (!parsers) return undefined;
  const oids = Object.keys(parsers).map(Number);
  for (const oid of oids) {
    if (parsers[oid]!("x", oid) !== "x")
      throw new Error(`pglite worker: only identity parsers are supported (type ${oid})`);
  }
  return oids.sort((a, b) => a - b);
}

export class RemotePGlite implements PgliteLike {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  readonly #listeners = new Map<number, (payload: string) => void>();
  #nextId = 1;
  #closed = false;
  /** Why the worker is gone (it crashed or was terminated): every later call fails with it instead of hanging. */
  #stopped: Error | undefined;
  readonly waitReady: Promise<void>;

  /** Statements sent to the worker and not answered yet (the /metrics database gauge on PGlite). */
  get inFlight(): number {
    return this.#pending.size;
  }

  constructor(init: WorkerInit) {
    this.#worker = new Worker(new URL("./pglite-worker.ts", import.meta.url), {
      workerData: init,
      // Node's own type stripping loads the worker (packages only): no loader to start in the thread.
      execArgv: [],
      transferList: init.loadDataDir ? [init.loadDataDir] : [],
    });
    this.waitReady = new Promise((resolve, reject) => {
      this.#worker.once("error", reject);
      this.#worker.once("exit", (code) => reject(new Error(`the PGlite worker stopped (exit code ${code})`)));
      this.#worker.on("message", (reply: Reply) => {
        if (reply.type === "ready") {
          if (this.#pending.size === 0) this.#worker.unref();
          resolve();
        } else if (reply.type === "init-error") reject(reviveError(reply.error));
        else this.#onReply(reply);
      });
    });
    this.#worker.on("error", (error) => this.#failAll(error));
    this.#worker.on("exit", (code) => this.#failAll(new Error(`the PGlite worker stopped (exit code ${code})`)));
    // Keeps the process alive while it starts and while a statement is under way, not otherwise (a PGlite
    // in this thread never held it).
    this.waitReady.catch(() => {});
  }

  #onReply(reply: Reply) {
    if (reply.type === "notify") {
      this.#listeners.get(reply.listener)?.(reply.payload);
      return;
    }
    if (reply.type !== "result" && reply.type !== "error") return;
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (reply.type === "result") pending.resolve(reply.value);
    else pending.reject(reviveError(reply.error));
  }

  #failAll(error: Error) {
    this.#stopped ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  #call<T>(op: Op): Promise<T> {
    if (this.#closed && op.op !== "close") return Promise.reject(new Error("PGlite is closed"));
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ id, ...op });
    });
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<Results<T>> {
    return this.#call({
      op: "query",
      sql,
      params,
      rowMode: options?.rowMode,
      rawOids: rawOidsOf(options?.parsers),
      tx,
    });
  }

  exec(sql: string, tx?: number): Promise<Results<unknown>[]> {
    return this.#call({ op: "exec", sql, tx });
  }

  async transaction<T>(callback: (tx: PgliteTxLike) => Promise<T>): Promise<T> {
    const id = await this.#call<number>({ op: "begin" });
    let closed = false;
    const tx: PgliteTxLike = {
      query: (sql, params, options) => this.query(sql, params, options, id),
      exec: (sql) => this.exec(sql, id),
      rollback: async () => {
        if (closed) return;
        closed = true;
        await this.#call({ op: "rollback", tx: id });
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      if (!closed) {
        closed = true;
        await this.#call({ op: "rollback", tx: id });
      }
      throw error;
    }
    if (!closed) {
      closed = true;
      await this.#call({ op: "commit", tx: id });
    }
    return result;
  }

  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const id = await this.#call<number>({ op: "listen", channel });
    this.#listeners.set(id, callback);
    return async () => {
      this.#listeners.delete(id);
      if (!this.#closed) await this.#call({ op: "unlisten", listener: id });
    };
  }

  /** Applies the migrations in `folder`, then `script`, inside the worker (no statement crosses back). */
  migrate(folder: string, script: string): Promise<void> {
    return this.#call({ op: "migrate", folder, script });
  }

  async dumpDataDir(compression: "none" | "gzip" | "auto" = "none"): Promise<Blob> {
    return new Blob([await this.#call<ArrayBuffer>({ op: "dump", compression })]);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#call({ op: "close" });
    this.#closed = true;
    this.#listeners.clear();
    await this.#worker.terminate();
  }
}
