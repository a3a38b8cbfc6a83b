import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { matchRoute } from "../../domain/routes.ts";

/** Written by the build (scripts/vite-plugins.ts, routePreloads): route pattern → chunks its page needs. */
export const ROUTE_PRELOADS_FILE = ".vite/route-preloads.json";

/**
 * The web app's index.html for a path, with `<link rel="modulepreload">` for that route's page chunks, so that a
 * phone fetches the page together with the app's entry instead of one round trip after it. A path that matches no
 * route, or a build without the preload list, gets index.html as it is.
 */
export function createSpaIndex(clientDir: string): (pathname: string) => string {
  const html = readFileSync(path.join(clientDir, "index.html"), "utf8");
  const listFile = path.join(clientDir, ROUTE_PRELOADS_FILE);
  const preloads = existsSync(listFile) ? (JSON.parse(readFileSync(listFile, "utf8")) as Record<string, string[]>) : {};
  const byRoute = new Map<string, string>();
  for (const [route, files] of Object.entries(preloads)) {
    const links = files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join("");
    if (links) byRoute.set(route, html.replace("</head>", `${links}</head>`));
  }
  return (pathname) => {
    const route = matchRoute(pathname);
    return (route && byRoute.get(route.path)) || html;
  };
}
