/** A small structured logger. Never pass secrets, tokens or passwords to it. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
export type Logger = Record<Exclude<LogLevel, "silent">, (msg: string, data?: Record<string, unknown>) => void>;

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export function createLogger(level: LogLevel = "info"): Logger {
  const make =
    (l: Exclude<LogLevel, "silent">) =>
    (msg: string, data?: Record<string, unknown>) => {
      if (ORDER[l] < ORDER[level]) return;
      const line = data ? `${msg} ${JSON.stringify(data)}` : msg;
      (l === "error" ? console.error : l === "warn" ? console.warn : console.log)(`[${l}] ${line}`);
    };
  return { debug: make("debug"), info: make("info"), warn: make("warn"), error: make("error") };
}
