import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { ROUTES } from "../src/domain/routes.ts";
import { launchChromium } from "../tests/setup/chromium.ts";
import { ensureBuild, kB, ROOT, serveBuild, table, writeResult } from "./lib.ts";

/**
 * JavaScript a shopper's phone downloads: loads / and /login from a production
 * build served by the real server, sums the gzip size of every script the page
 * fetched, and checks that no shop back-office chunk is among them.
 * Issue 3 budget: / ≤ 130 kB gzip.
 */
export const BUDGET_HOME_GZIP = 130_000;
const PAGES = ["/", "/login"];

type ManifestChunk = { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[] };
type Manifest = Record<string, ManifestChunk>;

/** Page module of each route, read from the lazy imports of src/client/app/pages.ts. */
function pageModules(): Map<string, string> {
  const source = readFileSync(path.join(ROOT, "src/client/app/pages.ts"), "utf8");
  const modules = new Map<string, string>();
  for (const m of source.matchAll(/"(\/[^"]*)":\s*(?:page\()?\(\)\s*=>\s*import\("([^"]+)"\)/g)) {
    modules.set(m[1]!, path.relative(ROOT, path.resolve(ROOT, "src/client/app", m[2]!)));
  }
  return modules;
}

/** Files a chunk pulls in with it (static imports, transitively). */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(manifest, dep, seen);
  return seen;
}

/**
 * Back-office chunks: those reachable from a back-office page (owner, admin or staff
 * routes) and from no shopper page or the entry. A shopper page must load none of them.
 */
export function backOfficeChunks(manifest: Manifest): Set<string> {
  const modules = pageModules();
  const isShopRoute = (p: string) => ROUTES.some((r) => r.path === p && ["owner", "admin", "staff"].includes(r.guard));
  const backOffice = new Set<string>();
  const shopper = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) closure(manifest, key, shopper);
  for (const [route, module] of modules) {
    if (!manifest[module]) continue;
    closure(manifest, module, isShopRoute(route) ? backOffice : shopper);
  }
  // Code under a back-office feature folder counts too, wherever it is imported from.
  for (const [key, chunk] of Object.entries(manifest)) {
    if (/src\/client\/features\/admin\//.test(chunk.src ?? key)) closure(manifest, key, backOffice);
  }
  return new Set([...backOffice].filter((k) => !shopper.has(k) || /src\/client\/features\/admin\//.test(k)).map((k) => manifest[k]!.file));
}

/** Sources that are shop back-office code: never in what a shopper page loads. */
const BACK_OFFICE_SOURCE = /(src\/client\/features\/(backoffice|admin)\/|src\/client\/components\/charts\/)/;

/** Back-office modules bundled into a chunk, read from its (hidden) source map. */
function backOfficeSourcesIn(clientDir: string, file: string): string[] {
  try {
    const map = JSON.parse(readFileSync(path.join(clientDir, `${file.replace(/^\//, "")}.map`), "utf8")) as { sources: string[] };
    return map.sources.filter((s) => BACK_OFFICE_SOURCE.test(s)).map((s) => s.replace(/^(\.\.\/)+/, ""));
  } catch {
    return [];
  }
}

export type PageBundle = { path: string; scripts: { file: string; raw: number; gzip: number }[]; raw: number; gzip: number; backOffice: string[]; backOfficeSources: string[] };

export async function measureBundles(): Promise<{ pages: PageBundle[]; backOfficeChunkCount: number }> {
  const clientDir = ensureBuild();
  const manifest = JSON.parse(readFileSync(path.join(clientDir, ".vite", "manifest.json"), "utf8")) as Manifest;
  const backOffice = backOfficeChunks(manifest);
  const { baseUrl, server } = await serveBuild(clientDir);
  const browser = await launchChromium();
  const pages: PageBundle[] = [];
  try {
    for (const pagePath of PAGES) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        locale: "fr-FR",
        serviceWorkers: "block",
      });
      const page = await context.newPage();
      const pending: Promise<{ file: string; raw: number; gzip: number } | null>[] = [];
      page.on("response", (response) => {
        const type = response.request().resourceType();
        const url = new URL(response.url());
        if (url.origin !== baseUrl || !(type === "script" || url.pathname.endsWith(".js"))) return;
        pending.push(
          response
            .body()
            .then((body) => ({ file: url.pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length }))
            .catch(() => null),
        );
      });
      await page.goto(`${baseUrl}${pagePath}`, { waitUntil: "networkidle" });
      await page.locator("main h1").first().waitFor({ timeout: 30_000 });
      await page.waitForLoadState("networkidle");
      const scripts = (await Promise.all(pending)).filter((s): s is NonNullable<typeof s> => s !== null);
      // The same file may be reported twice (preload + module); count it once.
      const unique = [...new Map(scripts.map((s) => [s.file, s])).values()].sort((a, b) => b.gzip - a.gzip);
      pages.push({
        path: pagePath,
        scripts: unique,
        raw: unique.reduce((n, s) => n + s.raw, 0),
        gzip: unique.reduce((n, s) => n + s.gzip, 0),
        backOffice: unique.map((s) => s.file.replace(/^\//, "")).filter((f) => backOffice.has(f)),
        backOfficeSources: [...new Set(unique.flatMap((s) => backOfficeSourcesIn(clientDir, s.file)))],
      });
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return { pages, backOfficeChunkCount: backOffice.size };
}

export async function runBundle(): Promise<boolean> {
  const { pages, backOfficeChunkCount } = await measureBundles();
  for (const p of pages) {
    console.log(`\nJavaScript loaded by ${p.path}`);
    console.log(table(["file", "raw kB", "gzip kB"], [...p.scripts.map((s) => [s.file, kB(s.raw), kB(s.gzip)]), ["total", kB(p.raw), kB(p.gzip)]]));
  }
  const home = pages.find((p) => p.path === "/")!;
  const failures: string[] = [];
  if (home.gzip > BUDGET_HOME_GZIP) failures.push(`/ loads ${kB(home.gzip)} kB gzip of JavaScript, over the ${kB(BUDGET_HOME_GZIP)} kB budget`);
  for (const p of pages) {
    if (p.backOffice.length) failures.push(`${p.path} loads back-office chunks: ${p.backOffice.join(", ")}`);
    if (p.backOfficeSources.length) failures.push(`${p.path} loads back-office modules: ${p.backOfficeSources.join(", ")}`);
  }
  console.log(`\nback-office chunks in the build: ${backOfficeChunkCount}; loaded by a shopper page: ${pages.reduce((n, p) => n + p.backOffice.length, 0)}`);
  const file = writeResult("bundle", {
    budgetHomeGzip: BUDGET_HOME_GZIP,
    pages,
    failures,
  });
  console.log(`results: ${path.relative(ROOT, file)}`);
  for (const f of failures) console.error(`FAIL ${f}`);
  return failures.length === 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const ok = await runBundle();
  process.exit(ok ? 0 : 1);
}
