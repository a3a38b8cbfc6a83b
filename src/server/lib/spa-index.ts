import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { matchRoute, ROUTES } from "../../domain/routes.ts";

/** Written by the build (scripts/vite-plugins.ts, routePreloads): route pattern → chunks its page needs. */
export const ROUTE_PRELOADS_FILE = ".vite/route-preloads.json";

/**
 * The web app's index.html for a path, with what that route's first screen needs asked for at once: its page chunks
 * (`<link rel="modulepreload">`, from the build's list) and the API reads it declares (`preloadApi` in
 * src/domain/routes.ts, `<link rel="preload" as="fetch">`). A phone then fetches them together with the app's entry
 * instead of one round trip after it. A path that matches no route, or a build without the list, gets index.html
 * as it is.
 */
export function createSpaIndex(clientDir: string): (pathname: string) => string {
  const html = readFileSync(path.join(clientDir, "index.html"), "utf8");
  const listFile = path.join(clientDir, ROUTE_PRELOADS_FILE);
  const chunks = existsSync(listFile) ? (JSON.parse(readFileSync(listFile, "utf8")) as Record<string, string[]>) : {};
  const byRoute = new Map<string, string>();
  for (const route of ROUTES) {
    const links = [
      ...(chunks[route.path] ?? []).map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
      // `crossorigin` makes the preload a CORS request with same-origin credentials, as the app's fetch() is:
      // otherwise the browser would not reuse it and would ask twice.
      ...(route.preloadApi ?? []).map((url) => `<link rel="preload" href="${url}" as="fetch" crossorigin>`),
    ].join("");
    if (links) byRoute.set(route.path, html.replace("</head>", `${links}</head>`));
  }
  return (pathname) => {
    const route = matchRoute(pathname);
    return (route && byRoute.get(route.path)) || html;
  };
}
