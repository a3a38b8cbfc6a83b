import { execFileSync } from "node:child_process";
import path from "node:path";
import { assertChromium } from "./chromium.ts";

/** Once per e2e run: Chromium must be there, and the web app is built fresh. */
export default function setup() {
  assertChromium();
  if (process.env.E2E_SKIP_BUILD === "1") return;
  const root = path.resolve(import.meta.dirname, "../..");
  execFileSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "error"], {
    cwd: root,
    stdio: "inherit",
    // Vitest sets NODE_ENV=test; the browser tests must run the production build
    // (under "test", Workbox writes a development service worker that never takes control here).
    env: { ...process.env, NODE_ENV: "production" },
  });
}
