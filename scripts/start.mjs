// `npm start`: builds the web app when it is missing or older than its sources,
// then runs the server with tsx (docs/decisions/0002), forwarding signals and the
// exit code so a process manager sees the server itself.
import { spawn, spawnSync } from "node:child_process";
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
if (reason) {
  console.log(`[start] construction de l'application web (${reason})…`);
  const started = Date.now();
  const build = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
  if (build.status !== 0) {
    console.error("[start] la construction de l'application web a échoué / the web app build failed");
    process.exit(build.status ?? 1);
  }
  console.log(`[start] application web construite en ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// One process: Node with tsx's loader (no extra tsx supervisor process in between).
const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "src/server/index.ts")], {
  cwd: root,
  stdio: "inherit",
  env: process.env,
});

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
const forward = (signal) => {
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
  if (signal) {
    // Die of the same signal, so our parent sees what happened to the server.
    for (const s of SIGNALS) process.removeListener(s, forward);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
