import { readFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";
import { ROUTES } from "../src/domain/routes.ts";
import { precompressClient } from "./build.mjs";
import { ROUTE_PRELOADS_FILE } from "../src/server/lib/spa-index.ts";

/**
 * The .br/.gz copies of the build's files (precompressClient in scripts/build.mjs), written when the build closes;
 * or not at all when a first `npm start` builds (FIDELE_PRECOMPRESS=later): it makes them after the server answers.
 */
export function precompress(): Plugin {
  let outDir = "";
  return {
    name: "fidele:precompress",
    apply: "build",
    enforce: "post",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      if (process.env.FIDELE_PRECOMPRESS !== "later") await precompressClient(outDir);
    },
  };
}

/** Route path → page module (relative to the project root), read from the lazy imports of src/client/app/pages.ts. */
function pageModules(root: string): Map<string, string> {
  const source = readFileSync(path.join(root, "src/client/app/pages.ts"), "utf8");
  const modules = new Map<string, string>();
  for (const m of source.matchAll(/"(\/[^"]*)":\s*(?:page\()?\(\)\s*=>\s*import\("([^"]+)"\)/g)) {
    modules.set(m[1]!, path.resolve(root, "src/client/app", m[2]!));
  }
  return modules;
}

/**
 * Starts downloading the opened route's page while the app's entry chunk is still on its way. Without it, a page's
 * chunk is requested only once the entry has arrived and run (the router's lazy routes): one more round trip before
 * anything can be shown, about 0.3 s on a phone's 4G. The build writes `.vite/route-preloads.json`: for each route
 * pattern, its page chunk and that chunk's imports, less those index.html already preloads (pages under the admin bar
 * also get the bar, as router.tsx fetches it). The server adds them to index.html as `<link rel="modulepreload">`
 * for the path it answers (src/server/lib/spa-index.ts): nothing more for the phone to download or run.
 */
export function routePreloads(): Plugin {
  let root = "";
  return {
    name: "fidele:route-preloads",
    apply: "build",
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === "chunk");
      const byModule = new Map(chunks.filter((c) => c.facadeModuleId).map((c) => [c.facadeModuleId!, c]));
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (file: string, seen = new Set<string>()) => {
        if (seen.has(file)) return seen;
        seen.add(file);
        for (const dep of byFile.get(file)?.imports ?? []) closure(dep, seen);
        return seen;
      };
      const entry = chunks.find((c) => c.isEntry && c.facadeModuleId?.endsWith("index.html"));
      if (!entry) this.error("route-preloads: no index.html entry in the bundle");
      const preloadedByEntry = closure(entry.fileName);
      const pages = pageModules(root);
      const bars = byModule.get(path.resolve(root, "src/client/app/back-office-bars.tsx"));
      const table: Record<string, string[]> = {};
      for (const route of ROUTES) {
        const page = byModule.get(pages.get(route.path) ?? path.resolve(root, "src/client/app/pending-page.tsx"));
        if (!page) continue;
        const needed = closure(page.fileName);
        if (route.showAdminbar && bars) closure(bars.fileName, needed);
        table[route.path] = [...needed].filter((f) => !preloadedByEntry.has(f));
      }
      this.emitFile({ type: "asset", fileName: ROUTE_PRELOADS_FILE, source: `${JSON.stringify(table, null, 1)}\n` });
    },
  };
}
