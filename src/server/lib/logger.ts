import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";

/**
 * Structured logs: one JSON object a line on stdout, through pino (ADR 0038). Every line has `level` (its name),
 * `time` (ISO 8601), `pid`, `hostname` and `msg`; a line written while a request is served also has its `requestId`
 * (lib/request-log.ts). Never pass secrets, tokens, passwords, names or query strings to it; e-mail addresses that
 * slip into a message (an SMTP server's refusal quotes the recipient) are masked before the line is written.
 */
type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
export type Logger = Record<Exclude<LogLevel, "silent">, (msg: string, data?: Record<string, unknown>) => void>;

const requestContext = new AsyncLocalStorage<Record<string, unknown>>();

/** Runs `fn` with `fields` added to every line logged inside it (its awaits included). */
export function withLogContext<T>(fields: Record<string, unknown>, fn: () => T): T {
  return requestContext.run(fields, fn);
}

/** An address, except the demo accounts' (public: the README lists them, and the start line shows them). */
const EMAIL = /[^\s@<>"'(),;:[\]]+@(?!fidele\.demo\b)[^\s@<>"'(),;:[\]]+\.[a-z]{2,}/gi;

function masked(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return value.includes("@") ? value.replace(EMAIL, "[e-mail]") : value;
  if (depth > 3 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => masked(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v, depth + 1)]));
}

/**
 * `destination`: where lines go (default stdout, written synchronously so the last lines before an exit are not
 * lost); the in-process API tests send them to the console, where an error line fails the test.
 */
export function createLogger(level: LogLevel = "info", destination?: pino.DestinationStream): Logger {
  const base = pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => requestContext.getStore() ?? {},
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
  const make = (l: Exclude<LogLevel, "silent">) => (msg: string, data?: Record<string, unknown>) => {
    if (!base.isLevelEnabled(l)) return;
    base[l](data ? (masked(data) as Record<string, unknown>) : {}, masked(msg) as string);
  };
  return { debug: make("debug"), info: make("info"), warn: make("warn"), error: make("error") };
}
