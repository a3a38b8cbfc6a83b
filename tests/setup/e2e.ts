import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { expect } from "vitest";
import { createShop, createUser, type CreateUserInput } from "../../src/server/db/factories.ts";
import { parseEnv } from "../../src/server/env.ts";
import { createLogger } from "../../src/server/lib/logger.ts";
import { type RunningServer, startServer } from "../../src/server/server.ts";
import { launchChromium } from "./chromium.ts";
import { freePort, startSmtp } from "./smtp.ts";
import { openTestDatabase } from "./test-db.ts";

export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  locale: "fr-FR",
  timezoneId: "Europe/Paris",
  serviceWorkers: "block",
};

export type Stack = Awaited<ReturnType<typeof startStack>>;

/**
 * One test file's world: the real app (built web app + API) on a free port of
 * 127.0.0.1, its own database, a real local SMTP server catching its mail, and
 * Chromium. Call in beforeAll, close in afterAll.
 */
export async function startStack(options: { env?: Record<string, string> } = {}) {
  const smtp = await startSmtp();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), "fidele-e2e-"));
  const env = parseEnv({
    NODE_ENV: "test",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: baseUrl,
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    SEED_DEMO: "0",
    LOG_LEVEL: "warn",
    ...options.env,
  });
  const database = await openTestDatabase();
  const server: RunningServer = await startServer(env, { database, logger: createLogger("warn") });
  const browser: Browser = await launchChromium();
  const deps = server.deps;

  return {
    baseUrl,
    smtp,
    deps,
    browser,
    /** A fresh phone-sized context (390×844, French). */
    async newContext(extra: BrowserContextOptions = {}): Promise<BrowserContext> {
      return browser.newContext({ ...PHONE, baseURL: baseUrl, ...extra });
    },
    createUser: (input: CreateUserInput = {}) => createUser(deps, input),
    createShop: (ownerId: string, input: { name?: string; slug?: string } = {}) => createShop(deps, { ownerId, ...input }),
    /** Signs in over HTTP: the session cookie lands in the context. */
    async signIn(context: BrowserContext, email: string, password: string) {
      const res = await context.request.post(`${baseUrl}/api/auth/sign-in/email`, {
        data: { email, password },
        headers: { origin: baseUrl },
      });
      if (!res.ok()) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
    },
    async close() {
      await browser.close().catch(() => {});
      await server.close().catch(() => {});
      await smtp.close().catch(() => {});
    },
  };
}

/** axe: no serious or critical violation on the page as it is now. */
export async function expectAccessible(page: Page) {
  // Let page transitions end first: mid-fade, text is translucent and axe rightly finds it too pale. A client-side
  // navigation may mount its page a frame or two after the URL changed, so wait for frames, then for every finite
  // animation, until none is running.
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    for (let round = 0; round < 10; round++) {
      await frame();
      await frame();
      const running = document
        .getAnimations()
        .filter((a) => a.playState === "running")
        .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Number.POSITIVE_INFINITY));
      if (running.length === 0) return;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  });
  // A frame sandboxed without scripts cannot host axe (analyze() would wait for it forever); the only one is the
  // newsletter preview, whose content is the e-mail, not the app.
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .exclude("iframe[sandbox]:not([sandbox~='allow-scripts'])")
    .analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

/** Saves a screenshot under test-results/ for people to look at. */
export async function snap(page: Page, name: string) {
  await page.screenshot({ path: path.join("test-results", "screens", `${name}.png`), fullPage: false });
}
