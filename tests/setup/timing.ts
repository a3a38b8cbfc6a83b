/**
 * Every time limit of the test suites, in one place (ADR 0040). A limit here says how long to wait before calling
 * something hung or missing; it is never a measure of speed, and no test asserts a wall-clock bound (timing
 * properties are asserted relative to the same run, or by counting; speed budgets live in bench/).
 *
 * TEST_TIME_FACTOR (default 1) multiplies every limit, for a machine slower or busier than the defaults allow for.
 * The defaults are already generous: a passing test never waits for its limit, so a large one costs nothing; it only
 * decides how late a hung test is reported.
 */
const factor = Number(process.env.TEST_TIME_FACTOR ?? "1");
if (!Number.isFinite(factor) || factor <= 0)
  throw new Error(`TEST_TIME_FACTOR must be a positive number, not "${process.env.TEST_TIME_FACTOR}"`);

/** `ms` times TEST_TIME_FACTOR. */
export const scaled = (ms: number) => Math.round(ms * factor);

/** Per test and per hook (beforeAll, afterAll…), by suite: vitest.config.ts gives them to each project. */
export const LIMITS = {
  unit: { test: scaled(30_000), hook: scaled(60_000) },
  api: { test: scaled(180_000), hook: scaled(180_000) },
  e2e: { test: scaled(240_000), hook: scaled(240_000) },
} as const;

/** A test known to run long on a quiet machine (a journey across processes, the fuzz of every route): its own limit. */
export const LONG_TEST = scaled(600_000);

/**
 * How long something that follows from what the test did may take to show (a job picked up, a page updated, a mail
 * received, a server answering its health check) before the test calls it missing.
 */
export const SOON = scaled(60_000);

/** A wait for work that takes tens of seconds by design (a paced campaign to its end, across processes). */
export const SLOW_WORK = scaled(240_000);

/** A server process or a browser's service worker getting ready. */
export const START = scaled(180_000);

/** Polls `probe` every `interval` ms until it returns a truthy value (returned), or fails after `timeout` ms. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  options: {
    timeout?: number;
    interval?: number;
    /** More to say when it never came (e.g. the output of the server processes involved). */
    context?: () => string;
  } = {},
): Promise<T> {
  const { timeout = SOON, interval = 100 } = options;
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) {
      const more = options.context?.();
      throw new Error(`timed out after ${timeout} ms waiting for ${what}${more ? `\n${more}` : ""}`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/** Resolves after `ms` (only for waits whose length is the point, e.g. letting a deferral's time pass). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
