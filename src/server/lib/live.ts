import { EventEmitter } from "node:events";
import type { Database } from "../db/client.ts";

/*
 * Live updates for server-sent event streams: a change announced in this process
 * wakes its streams at once; streams also re-read on a timer, which is how changes
 * made by another process reach them. Keys are ids (a redemption, a user's inbox).
 */
const buses = new WeakMap<Database, EventEmitter>();
function busOf(database: Database): EventEmitter {
  let bus = buses.get(database);
  if (!bus) {
    bus = new EventEmitter();
    bus.setMaxListeners(0);
    buses.set(database, bus);
  }
  return bus;
}

/** Wakes the streams waiting on `key` in this process. */
export function announce(database: Database, key: string) {
  busOf(database).emit(key);
}

/** Resolves when `key` may have changed (announced here) or after `ms`, whichever is first. */
export function waitForChange(database: Database, key: string, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const bus = busOf(database);
    const done = () => {
      clearTimeout(timer);
      bus.off(key, done);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    bus.on(key, done);
    signal?.addEventListener("abort", done, { once: true });
  });
}
