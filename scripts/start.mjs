// `npm start`: builds the web app when it is missing or older than its sources,
// while the server starts (with tsx, docs/decisions/0002; it listens once the build
// is done), forwarding signals and the exit code so a process manager sees the server itself.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
// Settings from .env when there is one (variables already set win), see .env.example.
if (existsSync(path.join(root, ".env"))) process.loadEnvFile(path.join(root, ".env"));
const builtIndex = path.join(root, "dist/client/index.html");
/** Everything that ends up in the web app's bundle (the client imports src/domain too). */
const SOURCES = ["src/client", "src/domain", "index.html", "vite.config.ts", "public", "package-lock.json"];

/** Newest modification time under `p` (a file or a folder), 0 when absent. */
function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const stat = statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

function needsBuild() {
  if (!existsSync(builtIndex)) return "absente";
  const builtAt = statSync(builtIndex).mtimeMs;
  const changed = SOURCES.find((s) => newestMtime(path.join(root, s)) > builtAt);
  return changed ? `${changed} a changé` : null;
}

const reason = needsBuild();
// The build runs beside the server's start (ADR 0026): while Vite builds, the server opens the database,
// migrates it and seeds the demo; it only listens once the build is there (it is told through an IPC
// message), so a first start costs the longer of the two, not their sum.
let build = null;
const buildStarted = Date.now();
if (reason) {
  console.log(`[start] construction de l'application web (${reason})…`);
  build = spawn(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], {
    cwd: root,
    stdio: "inherit",
  });
}

// One process: Node with tsx's loader (no extra tsx supervisor process in between).
const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "src/server/index.ts")], {
  cwd: root,
  stdio: build ? ["inherit", "inherit", "inherit", "ipc"] : "inherit",
  env: build ? { ...process.env, FIDELE_WEB_BUILD: "pending" } : process.env,
});

build?.on("exit", (code) => {
  if (code !== 0) {
    console.error("[start] la construction de l'application web a échoué / the web app build failed");
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    process.exit(code ?? 1);
  }
  console.log(`[start] application web construite en ${((Date.now() - buildStarted) / 1000).toFixed(1)} s`);
  if (child.connected) child.send({ webBuild: "done" }, () => child.disconnect());
});

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
const forward = (signal) => {
  if (build && build.exitCode === null && build.signalCode === null) build.kill(signal);
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
for (const signal of SIGNALS) process.on(signal, forward);
// npm runs us through `sh -c`, which does not pass a SIGTERM sent to npm on: when our
// parent goes away, stop the server too rather than leave it holding DATA_DIR.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) forward("SIGTERM");
}, 1000).unref();

child.on("error", (error) => {
  console.error(`[start] impossible de lancer le serveur / could not start the server: ${error.message}`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (build && build.exitCode === null && build.signalCode === null) build.kill("SIGTERM");
  if (signal) {
    // Die of the same signal, so our parent sees what happened to the server.
    for (const s of SIGNALS) process.removeListener(s, forward);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
