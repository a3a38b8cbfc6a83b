// `npm start`: builds what is missing or out of date (scripts/build.mjs: the web app with Vite, the server with
// esbuild, each cached by a hash of its sources), runs the built server (dist/server/index.js; it listens once the
// web build is done), forwarding signals and the exit code so a process manager sees the server itself.
import "./require-node.mjs";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import module from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  buildWeb,
  ensureServerBuild,
  needsPrecompression,
  precompressInBackground,
  ROOT,
  SERVER_ENTRY,
  webBuildReason,
  webInputsHash,
} from "./build.mjs";

const root = ROOT;
// Settings from .env when there is one (variables already set win), see .env.example.
if (existsSync(path.join(root, ".env"))) process.loadEnvFile(path.join(root, ".env"));

const webHash = webInputsHash();
const reason = webBuildReason(webHash);
// The web build runs beside the server's start (ADR 0026): while Vite builds, the server opens the database,
// migrates it and seeds the demo; it only listens once the build is there (it is told through an IPC
// message), so a first start costs the longer of the two, not their sum.
let build = null;
const buildStarted = Date.now();
if (reason) {
  console.log(`[start] construction de l'application web (${reason})…`);
  // Its compressed copies (3.1 s of brotli) are made once the server answers, not on the way (ADR 0037).
  build = buildWeb(webHash, { precompress: false }).child;
}

// The server runs as built JavaScript (ADR 0037): bundled again only when its sources changed (~0.3 s).
try {
  const server = await ensureServerBuild();
  if (server.built) console.log(`[start] serveur construit (${server.reason}) en ${server.seconds.toFixed(1)} s`);
} catch (error) {
  console.error(`[start] la construction du serveur a échoué / the server build failed: ${error.message}`);
  if (build && build.exitCode === null) build.kill("SIGTERM");
  process.exit(1);
}

// V8's compiled code for the server's modules, kept between starts (Node's compile cache: ~30 % of their load time).
const compileCache = process.env.NODE_COMPILE_CACHE || path.join(root, "dist/.node-compile-cache");
// npm runs us through `sh -c`, which does not pass a SIGTERM sent to npm on: when our
// parent goes away, stop the server too rather than leave it holding DATA_DIR.
const parentPid = process.ppid;
const whenOrphaned = (stop) =>
  setInterval(() => {
    if (process.ppid !== parentPid) stop();
  }, 1000).unref();

if (!build) {
  // A start stopped before the copies of the last build were all compressed finishes them.
  if (needsPrecompression(webHash)) precompressInBackground(webHash);
  // Nothing to build (a later start): the server runs in this process — no second Node to boot. It handles
  // SIGINT/SIGTERM/SIGHUP itself and exits with its own code.
  module.enableCompileCache?.(compileCache);
  process.env.NODE_COMPILE_CACHE = compileCache; // for the PGlite worker thread too
  process.setSourceMapsEnabled(true);
  whenOrphaned(() => process.kill(process.pid, "SIGTERM"));
  await import(pathToFileURL(SERVER_ENTRY).href);
} else {
  runBesideBuild(build);
}

/** A first start (or one after a change): the server in a child process, told over IPC when the web app is built. */
function runBesideBuild(build) {
  const child = spawn(process.execPath, ["--enable-source-maps", SERVER_ENTRY], {
    cwd: root,
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    env: { ...process.env, FIDELE_WEB_BUILD: "pending", NODE_COMPILE_CACHE: compileCache },
  });

  build.on("exit", (code) => {
    if (code !== 0) {
      console.error("[start] la construction de l'application web a échoué / the web app build failed");
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      process.exit(code ?? 1);
    }
    console.log(`[start] application web construite en ${((Date.now() - buildStarted) / 1000).toFixed(1)} s`);
    if (child.connected) child.send({ webBuild: "done" }, () => child.disconnect());
    precompressInBackground(webHash);
  });

  const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
  const forward = (signal) => {
    if (build.exitCode === null && build.signalCode === null) build.kill(signal);
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of SIGNALS) process.on(signal, forward);
  whenOrphaned(() => forward("SIGTERM"));

  child.on("error", (error) => {
    console.error(`[start] impossible de lancer le serveur / could not start the server: ${error.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (build.exitCode === null && build.signalCode === null) build.kill("SIGTERM");
    if (signal) {
      // Die of the same signal, so our parent sees what happened to the server.
      for (const s of SIGNALS) process.removeListener(s, forward);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}
