import { buildWeb, webBuildReason, webInputsHash } from "../../scripts/build.mjs";
import { assertChromium } from "./chromium.ts";

/**
 * Once per e2e run: Chromium must be there, and the web app (dist/client) must match its sources. It is built the way
 * `npm start` builds it (scripts/build.mjs, cached by the content of its inputs), so a run after a change to the
 * server or the tests alone reuses the last build instead of spending a minute of CPU on an identical one.
 */
export default async function setup() {
  assertChromium();
  if (process.env.E2E_SKIP_BUILD === "1") return;
  const hash = webInputsHash();
  if (!webBuildReason(hash)) return;
  // Vitest sets NODE_ENV=test; the browser tests must run the production build (under "test", Workbox writes a
  // development service worker that never takes control here). The child takes the environment as it is now.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  const build = buildWeb(hash);
  process.env.NODE_ENV = nodeEnv;
  const code = await build.done;
  if (code !== 0) throw new Error(`the web app's build failed (exit ${code})`);
}
