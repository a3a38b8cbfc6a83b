// The two builds `npm start` runs on (docs/decisions/0037), each cached by content: a SHA-256 of its inputs
// (every file's path and bytes, not modification times) is written beside the output once the build succeeds,
// and a build whose inputs hash the same is skipped.
//   - web: Vite → dist/client (hash in dist/client.sha256)
//   - server: esbuild → dist/server/index.js and dist/server/pglite-worker.js, packages left external
//     (hash in dist/server.sha256)
// `npm run build` runs both when needed (`-- --force` rebuilds); `node scripts/build.mjs server` one of them.
import "./require-node.mjs";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { setPriority } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const CLIENT_DIR = path.join(ROOT, "dist/client");
export const SERVER_DIR = path.join(ROOT, "dist/server");
/** What `npm start` runs. */
export const SERVER_ENTRY = path.join(SERVER_DIR, "index.js");

/** Everything that ends up in the web app's bundle (the client imports src/domain; the Vite plugins read spa-index.ts). */
const WEB_INPUTS = [
  "src/client",
  "src/domain",
  "src/server/lib/spa-index.ts",
  "index.html",
  "vite.config.ts",
  "scripts/vite-plugins.ts",
  "public",
  "tsconfig.json",
  "package-lock.json",
];
/** Everything the server's bundle is made of (packages are external: the lockfile stands for them). */
const SERVER_INPUTS = ["src/server", "src/domain", "scripts/build.mjs", "package-lock.json"];

/** The worker entries the server starts with `new URL("./x.ts", import.meta.url)`, built beside the bundle. */
const SERVER_ENTRIES = { index: "src/server/index.ts", "pglite-worker": "src/server/db/pglite-worker.ts" };

/** Packages the server's bundle leaves to node_modules (see buildServer). */
const EXTERNAL = ["@electric-sql/pglite", "@electric-sql/pglite/*", "mjml", "pg-native", "pg-boss"];

/** Files under `p`, sorted, skipping tests (they are not part of any build). */
function files(p) {
  if (!existsSync(p)) return [];
  if (!statSync(p).isDirectory()) return [p];
  return readdirSync(p)
    .sort()
    .flatMap((entry) => (/\.test\.tsx?$/.test(entry) ? [] : files(path.join(p, entry))));
}

/**
 * SHA-256 over the inputs' paths (relative to `root`) and contents: a touched file hashes the same, an edited one not.
 * Reading every input is ~35 ms of a later start's ~0.9 s: the hash is kept beside a stamp of the files' paths,
 * sizes and modification times (dist/.inputs-stamps.json), and reused while the stamp is the same. A stamp that
 * differs only means reading them again (an edit back to the same bytes still hashes the same).
 */
export function inputsHash(inputs, root = ROOT) {
  const list = inputs.flatMap((input) => files(path.join(root, input)));
  const stamp = createHash("sha256");
  for (const file of list) {
    const { size, mtimeMs } = statSync(file);
    stamp.update(`${path.relative(root, file)}\0${size}\0${mtimeMs}\0`);
  }
  const key = `${root}\0${inputs.join("\0")}`;
  const stamps = readStamps();
  const stampHex = stamp.digest("hex");
  if (stamps[key]?.stamp === stampHex) return stamps[key].hash;
  const hash = createHash("sha256");
  for (const file of list) {
    hash.update(path.relative(root, file));
    hash.update("\0");
    hash.update(readFileSync(file));
    hash.update("\0");
  }
  const digest = hash.digest("hex");
  try {
    writeAtomic(STAMPS, JSON.stringify({ ...readStamps(), [key]: { stamp: stampHex, hash: digest } }));
  } catch {} // a read-only checkout still builds: it only reads its inputs again next time
  return digest;
}

const STAMPS = path.join(ROOT, "dist/.inputs-stamps.json");
function readStamps() {
  try {
    return JSON.parse(readFileSync(STAMPS, "utf8"));
  } catch {
    return {};
  }
}

export const webInputsHash = () => inputsHash(WEB_INPUTS);
export const serverInputsHash = () => inputsHash(SERVER_INPUTS);

const hashFile = (dir) => `${dir}.sha256`;
const builtHash = (dir) => (existsSync(hashFile(dir)) ? readFileSync(hashFile(dir), "utf8").trim() : null);

/** Writes a file whole or not at all (two builders at once each rename a complete copy). */
function writeAtomic(file, contents) {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, file);
}

/** Why the web app needs building (a French phrase for the start log), or null when dist/client matches its sources. */
export function webBuildReason(hash = webInputsHash()) {
  if (!existsSync(path.join(CLIENT_DIR, "index.html"))) return "absente";
  return builtHash(CLIENT_DIR) === hash ? null : "ses sources ont changé";
}

/**
 * Runs Vite's build (a child process: its own event loop and memory) and records the inputs' hash. With
 * `precompress: false` (a first `npm start`) the .br/.gz copies are left to precompressInBackground, after.
 */
export function buildWeb(hash = webInputsHash(), { precompress = true } = {}) {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"],
    {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, FIDELE_PRECOMPRESS: precompress ? "now" : "later" },
    },
  );
  const done = new Promise((resolve) => {
    child.on("error", () => resolve(1));
    child.on("exit", (code, signal) => {
      if (code === 0) {
        writeAtomic(hashFile(CLIENT_DIR), `${hash}\n`);
        if (precompress) writeAtomic(PRECOMPRESSED, `${hash}\n`);
      }
      resolve(signal ? 1 : (code ?? 1));
    });
  });
  return { child, done };
}

/** Names the web build whose files all have their .br and .gz beside them (written once the last one is). */
const PRECOMPRESSED = path.join(ROOT, "dist/client.precompressed");

/** Whether dist/client lacks some of its compressed copies (a first start leaves them for later). */
export function needsPrecompression(hash = webInputsHash()) {
  return !existsSync(PRECOMPRESSED) || readFileSync(PRECOMPRESSED, "utf8").trim() !== hash;
}

/**
 * Writes `name.br` and `name.gz` beside every compressible file of the web build, compressed once at their best,
 * for the server's static files (serveStatic `precompressed`, src/server/app.ts). Brotli at quality 11 makes the
 * JavaScript a phone downloads about 13 % smaller than gzip; compressing on every request could not afford it.
 * Files over 512 kB (the QR reader's WebAssembly) get quality 9: 11 would add ~10 s to every build for 12 %.
 * Each copy is written under a temporary name and renamed: the server, which may be serving already, sends a
 * whole copy or the file itself (compressed on the fly), never half a copy.
 */
export async function precompressClient(dir = CLIENT_DIR) {
  const brotli = promisify(brotliCompress);
  const gzipAsync = promisify(gzip);
  const files = (await readdir(dir, { recursive: true })).filter((f) =>
    /\.(js|mjs|css|svg|webmanifest|json|wasm)$/.test(f),
  );
  const write = async (file, contents) => {
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, contents);
    await rename(tmp, file);
  };
  await Promise.all(
    files.map(async (file) => {
      // The service worker is written by vite-plugin-pwa, possibly after this runs: never a stale copy of it.
      if (/^(sw|workbox-[\w-]+)\.js$/.test(file)) return;
      const full = path.join(dir, file);
      if ((await stat(full)).size < 1024) return;
      const data = await readFile(full);
      const quality = data.length > 512_000 ? 9 : 11;
      const params = { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: data.length };
      await write(`${full}.br`, await brotli(data, { params }));
      await write(`${full}.gz`, await gzipAsync(data, { level: 9 }));
    }),
  );
}

/**
 * A first `npm start` serves as soon as the web app is built, and its compressed copies are made after, by a child
 * at the lowest CPU priority (3.1 s of brotli that were on the way to healthy; ADR 0037). Until they exist, files
 * go out compressed on the fly (gzip). Unreferenced: it does not hold `npm start` open; stopped with it, it is
 * run again by the next start.
 */
export function precompressInBackground(hash = webInputsHash()) {
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/build.mjs"), "precompress", `--hash=${hash}`], {
    cwd: ROOT,
    stdio: "ignore",
  });
  child.on("error", () => {});
  try {
    if (child.pid) setPriority(child.pid, 19);
  } catch {}
  child.unref();
  return child;
}

export function serverBuildReason(hash = serverInputsHash()) {
  if (!existsSync(SERVER_ENTRY)) return "absent";
  return builtHash(SERVER_DIR) === hash ? null : "ses sources ont changé";
}

/**
 * esbuild plugin: in a bundle every module's `import.meta.url` would be the bundle's. The server finds files beside
 * its sources (migrations, database functions, content), so in each source file `import.meta.url`/`dirname`/`filename`
 * keep meaning that source file's place. One exception, the worker idiom `new URL("./x.ts", import.meta.url)` naming
 * an entry above: it becomes the built entry beside the bundle (`./x.js`).
 */
function sourceLocations() {
  return {
    name: "fidele-source-locations",
    setup(build) {
      const sources = path.join(ROOT, "src") + path.sep;
      build.onLoad({ filter: /\.tsx?$/ }, (args) => {
        if (!args.path.startsWith(sources)) return undefined; // packages keep esbuild's own handling
        let code = readFileSync(args.path, "utf8");
        if (!code.includes("import.meta")) return undefined;
        const fromBundle = (target) => path.relative(SERVER_DIR, target).split(path.sep).join("/");
        code = code.replace(
          /new URL\(\s*(["'])(\.{1,2}\/[^"']+\.ts)\1\s*,\s*import\.meta\.url\s*\)/g,
          (whole, _q, rel) => {
            const target = path.resolve(path.dirname(args.path), rel);
            const entry = Object.entries(SERVER_ENTRIES).find(([, source]) => path.join(ROOT, source) === target);
            return entry ? `new URL("./${entry[0]}.js", __fideleBundleUrl)` : whole;
          },
        );
        const url = JSON.stringify(fromBundle(args.path));
        const dir = JSON.stringify(fromBundle(path.dirname(args.path)));
        code = code
          .replaceAll("import.meta.url", `new URL(${url}, import.meta.url).href`)
          .replaceAll("import.meta.dirname", `__fidelePath.join(import.meta.dirname, ${dir})`)
          .replaceAll("import.meta.filename", `__fidelePath.join(import.meta.dirname, ${url})`)
          .replaceAll("__fideleBundleUrl", "import.meta.url");
        return { contents: code, loader: args.path.endsWith("x") ? "tsx" : "ts" };
      });
    },
  };
}

/** Bundles the server with esbuild (in this process: ~0.2 s) and records the inputs' hash. */
export async function buildServer(hash = serverInputsHash()) {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(
      Object.entries(SERVER_ENTRIES).map(([name, source]) => [name, path.join(ROOT, source)]),
    ),
    outdir: SERVER_DIR,
    bundle: true,
    platform: "node",
    format: "esm",
    // Chunks: a module imported lazily (index.ts imports server.ts once the database is opening) stays out of the
    // entry, with its packages, so loading them overlaps PGlite's start in its worker instead of preceding it.
    splitting: true,
    chunkNames: "[name]-[hash]", // beside the entries: import.meta.url means the same folder in every file
    target: "node22",
    // Packages are bundled too: loading ~1,500 small files of node_modules (resolving each, reading package.json
    // files, compiling each module) was most of a start's main thread. Left out: PGlite (it finds its .wasm and .data
    // files beside its own module), MJML (loaded lazily, the first time an e-mail is rendered) and optional
    // native add-ons nothing installs.
    external: EXTERNAL,
    sourcemap: "linked",
    // One line for the rewritten import.meta.dirname/filename (node:path, under a name no source uses).
    // node:path for the rewritten import.meta.dirname/filename; a `require` for the CommonJS packages bundled in.
    banner: {
      js: 'import __fidelePath from "node:path"; import { createRequire as __fideleCreateRequire } from "node:module"; const require = __fideleCreateRequire(import.meta.url);',
    },
    plugins: [sourceLocations()],
    write: false,
    logLevel: "warning",
  });
  // Chunks are named by content and written before the entries that import them; the last build's leftovers go.
  const entries = new Set(Object.keys(SERVER_ENTRIES).flatMap((name) => [`${name}.js`, `${name}.js.map`]));
  const isEntry = (file) => entries.has(path.basename(file.path));
  const outputs = [...result.outputFiles.filter((f) => !isEntry(f)), ...result.outputFiles.filter(isEntry)];
  for (const file of outputs) writeAtomic(file.path, file.contents);
  const written = new Set(outputs.map((f) => path.basename(f.path)));
  // (another build running at once writes the same files: its temporary ones are left alone)
  for (const name of readdirSync(SERVER_DIR))
    if (!written.has(name) && !name.endsWith(".tmp"))
      rmSync(path.join(SERVER_DIR, name), { recursive: true, force: true });
  writeAtomic(hashFile(SERVER_DIR), `${hash}\n`);
}

/** Builds the server when its sources changed; returns what it did, for the start log. */
export async function ensureServerBuild({ force = false } = {}) {
  const hash = serverInputsHash();
  const reason = force ? "demandée" : serverBuildReason(hash);
  if (!reason) return { built: false };
  const started = performance.now();
  await buildServer(hash);
  return { built: true, reason, seconds: (performance.now() - started) / 1000 };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const force = args.includes("--force");
  const which = args.filter((a) => !a.startsWith("--"));
  if (which[0] === "precompress") {
    // `node scripts/build.mjs precompress --hash=…` (precompressInBackground): the copies, then the mark, only if
    // the build they were made for is still the one in dist/client.
    const hash = args.find((a) => a.startsWith("--hash="))?.slice("--hash=".length) ?? builtHash(CLIENT_DIR);
    await precompressClient();
    if (builtHash(CLIENT_DIR) === hash) writeAtomic(PRECOMPRESSED, `${hash}\n`);
    process.exit(0);
  }
  const wanted = which.length ? which : ["web", "server"];
  for (const w of wanted) if (w !== "web" && w !== "server") throw new Error(`unknown build "${w}" (web, server)`);
  if (wanted.includes("server")) {
    const server = await ensureServerBuild({ force });
    console.log(
      server.built ? `[build] serveur construit en ${server.seconds.toFixed(1)} s` : "[build] serveur à jour",
    );
  }
  if (wanted.includes("web")) {
    const hash = webInputsHash();
    if (force || webBuildReason(hash)) {
      const code = await buildWeb(hash).done;
      if (code !== 0) process.exit(code);
      console.log("[build] application web construite");
    } else console.log("[build] application web à jour");
  }
}
