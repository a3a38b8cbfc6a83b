// `npm run dev`: the API server under `tsx watch` (restarts on change) on port 3000
// and Vite's dev server (hot reload) which proxies /api to it (vite.config.ts).
// Open the address Vite prints (http://localhost:5173).
import "./require-node.mjs";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
// Settings from .env when there is one (variables already set win), see .env.example.
if (existsSync(path.join(root, ".env"))) process.loadEnvFile(path.join(root, ".env"));
const VITE_URL = "http://localhost:5173";

// The browser talks to Vite's origin: better-auth must trust it and build its links with it.
const serverEnv = {
  ...process.env,
  NODE_ENV: process.env.NODE_ENV ?? "development",
  PORT: "3000",
  APP_URL: process.env.APP_URL ?? VITE_URL,
};
if (process.env.PORT && process.env.PORT !== "3000") {
  console.warn(`[dev] PORT=${process.env.PORT} ignoré : Vite relaie /api vers le port 3000 (vite.config.ts).`);
}

const children = [
  spawn(
    process.execPath,
    [path.join(root, "node_modules/tsx/dist/cli.mjs"), "watch", "--clear-screen=false", "src/server/index.ts"],
    {
      cwd: root,
      stdio: "inherit",
      env: serverEnv,
    },
  ),
  spawn(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "--port", "5173", "--strictPort"], {
    cwd: root,
    stdio: "inherit",
    env: process.env,
  }),
];

let stopping = false;
function stopAll(signal = "SIGTERM") {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => stopAll(signal));

// When either side stops, stop the other and leave with its code.
let exitCode = 0;
let remaining = children.length;
for (const child of children) {
  child.on("exit", (code, signal) => {
    if (!stopping) exitCode = signal ? 1 : (code ?? 1);
    stopAll();
    remaining -= 1;
    if (remaining === 0) process.exit(exitCode);
  });
}
