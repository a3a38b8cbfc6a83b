import { expect } from "vitest";
import { SOON } from "./timing.ts";

/**
 * `expect.poll(read)` with the suites' wait limit (timing.ts) instead of vitest's own (1 s): what the test did shows
 * up within it, polled every 100 ms.
 */
export function eventually<T>(read: () => Promise<T> | T, options: { timeout?: number; interval?: number } = {}) {
  return expect.poll(read, { timeout: options.timeout ?? SOON, interval: options.interval ?? 100 });
}
