import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../tests/setup/smtp.ts";
import { parseEnv } from "../src/server/env.ts";
import { openDatabase } from "../src/server/db/client.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import { type RunningServer, startServer } from "../src/server/server.ts";

export const ROOT = path.resolve(import.meta.dirname, "..");

/**
 * The server as `npm start` runs it (the bundle in dist/server, built first when its sources changed), in a process
 * of its own on a free port of 127.0.0.1: production, no demo data; `env` adds to and overrides that.
 */
export async function spawnBuiltServer(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const { ensureServerBuild, SERVER_ENTRY } = await import("../scripts/build.mjs");
  await ensureServerBuild();
  const port = await freePort();
  // BENCH_SERVER_PROFILE=<dir>: each server writes a V8 CPU profile there when it stops (as the world servers do).
  const profile = process.env.BENCH_SERVER_PROFILE
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE}`]
    : [];
  const child = spawn(process.execPath, [...profile, "--enable-source-maps", SERVER_ENTRY], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", SEED_DEMO: "0", ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { child, port };
}

/** Stops a server process gracefully (SIGTERM), killing it after 15 s; resolves once it has exited. */
export async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}
export const RESULTS_DIR = path.join(ROOT, "bench", "results");

/**
 * A production build of the web app in its own folder (not dist/client, which the
 * e2e suites rebuild), with Vite's manifest and hidden source maps (written, never
 * referenced by the pages) so chunks can be traced to their sources.
 * `bench/run.ts` builds once and passes BENCH_CLIENT_DIR to every benchmark.
 */
export function ensureBuild(): string {
  const existing = process.env.BENCH_CLIENT_DIR;
  if (existing && existsSync(path.join(existing, "index.html"))) return existing;
  const outDir = path.join(tmpdir(), `fidele-bench-build-${process.pid}`);
  console.log(`vite build → ${outDir}`);
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, "node_modules/vite/bin/vite.js"),
      "build",
      "--outDir",
      outDir,
      "--emptyOutDir",
      "--manifest",
      "--sourcemap",
      "hidden",
      "--logLevel",
      "error",
    ],
    { cwd: ROOT, stdio: "inherit" },
  );
  process.env.BENCH_CLIENT_DIR = outDir;
  return outDir;
}

/**
 * The real server (production settings) on a free port of 127.0.0.1, serving that build, on an in-memory database.
 * `signIn`: the port is chosen first and APP_URL set to it, so a browser's sign-in passes the origin check.
 */
export async function serveBuild(
  clientDir: string,
  options: { signIn?: boolean } = {},
): Promise<{ baseUrl: string; server: RunningServer }> {
  const dataDir = path.join(tmpdir(), `fidele-bench-data-${process.pid}-${Date.now()}`);
  const port = options.signIn ? await freePort() : 0;
  const env = parseEnv({
    NODE_ENV: "production",
    PORT: String(port),
    ...(options.signIn ? { APP_URL: `http://127.0.0.1:${port}` } : {}),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SEED_DEMO: "0",
    LOG_LEVEL: "warn",
    SECRET: randomBytes(32).toString("base64url"),
  });
  const database = await openDatabase({ memory: true });
  const server = await startServer(env, { clientDir, database, logger: createLogger("warn") });
  const baseUrl = `http://127.0.0.1:${server.port}`;
  // Without `signIn`, APP_URL was computed from PORT=0: the app only uses it for links in e-mails and origin checks.
  return { baseUrl, server };
}

export function writeResult(name: string, data: unknown): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.json`);
  writeFileSync(file, `${JSON.stringify({ measuredAt: new Date().toISOString(), ...(data as object) }, null, 2)}\n`);
  return file;
}

/** A fixed-width table for the terminal. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(cells[0]!), widths.map((w) => "─".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

export const kB = (bytes: number) => (bytes / 1000).toFixed(1);
