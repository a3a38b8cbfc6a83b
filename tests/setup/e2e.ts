import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AxeResults, RunOptions } from "axe-core";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { expect } from "vitest";
import { createShop, createUser, type CreateUserInput } from "../../src/server/db/factories.ts";
import { parseEnv } from "../../src/server/env.ts";
import { createLogger } from "../../src/server/lib/logger.ts";
import { type RunningServer, startServer } from "../../src/server/server.ts";
import { launchChromium } from "./chromium.ts";
import { freePort, startSmtp } from "./smtp.ts";
import { openTestDatabase } from "./test-db.ts";
import { eventually } from "./eventually.ts";
import { SOON, START } from "./timing.ts";

export { eventually };

export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  locale: "fr-FR",
  timezoneId: "Europe/Paris",
  serviceWorkers: "block",
};

export type Stack = Awaited<ReturnType<typeof startStack>>;

let sharedBrowser: Promise<Browser> | undefined;

/**
 * The Chromium of this worker process: launched at its first file and kept for the next ones (a worker runs one file
 * at a time; launching one per file cost a second of CPU each time), again if it has died. Each file's contexts are
 * its own and closed with its stack; the browser ends with the worker process.
 */
async function workerBrowser(): Promise<Browser> {
  const current = await sharedBrowser?.catch(() => undefined);
  if (current?.isConnected()) return current;
  sharedBrowser = launchChromium();
  return sharedBrowser;
}

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
  const browser: Browser = await workerBrowser();
  const deps = server.deps;

  async function newContext(extra: BrowserContextOptions = {}): Promise<BrowserContext> {
    const context = await browser.newContext({ ...PHONE, baseURL: baseUrl, ...extra });
    // Playwright's own default (30 s for an action or a navigation) is one more limit; the suites' is timing.ts's.
    context.setDefaultTimeout(SOON);
    return context;
  }

  async function signIn(context: BrowserContext, email: string, password: string) {
    const res = await context.request.post(`${baseUrl}/api/auth/sign-in/email`, {
      data: { email, password },
      headers: { origin: baseUrl },
    });
    if (!res.ok()) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
  }

  return {
    baseUrl,
    smtp,
    deps,
    browser,
    /** A fresh phone-sized context (390×844, French). */
    newContext,
    createUser: (input: CreateUserInput = {}) => createUser(deps, input),
    createShop: (ownerId: string, input: { name?: string; slug?: string } = {}) =>
      createShop(deps, { ownerId, ...input }),
    /** Signs in over HTTP: the session cookie lands in the context. */
    signIn,
    /** A fresh phone-sized context, signed in as `user` (over HTTP). */
    async signedIn(user: { email: string; password: string }, extra: BrowserContextOptions = {}) {
      const context = await newContext(extra);
      await signIn(context, user.email, user.password);
      return context;
    },
    async close() {
      // The browser stays for the worker's next file; what this file opened in it goes.
      await Promise.all(browser.contexts().map((context) => context.close().catch(() => {})));
      await server.close().catch(() => {});
      await smtp.close().catch(() => {});
    },
  };
}

/** axe: no serious or critical violation on the page as it is now (`exclude`: selectors of parts left out). */
export async function expectAccessible(page: Page, options: { exclude?: string[] } = {}) {
  expect(await accessibilityViolations(page, options)).toEqual([]);
}

/**
 * axe's serious and critical violations on the page as it is now, one line each (none: []): for sweeps. Besides
 * WCAG 2.1 A and AA, « label-content-name-mismatch » runs (WCAG 2.5.3: a control's accessible name starts with its
 * visible label; axe keeps it off by default as experimental). `alsoRules`: more rules to run, reported whatever
 * their impact (the route sweep's « region »: every piece of a page inside a landmark).
 */
export async function accessibilityViolations(
  page: Page,
  options: { exclude?: string[]; alsoRules?: string[]; onlyRules?: string[] } = {},
): Promise<string[]> {
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
  // The only frame of the app is the newsletter preview: sandboxed without scripts, it cannot host axe, and its
  // content is the e-mail, not the app. So axe runs in the page alone (iframes: false), the frame element itself
  // checked like any other.
  const also = options.alsoRules ?? [];
  // Rules enabled by name run besides the tags' (axe-core's Audit.ruleShouldRun).
  // `onlyRules`: just those (the dark sweep: only colours change with the scheme, so only contrast is checked again).
  const runOptions: RunOptions = {
    iframes: false,
    resultTypes: ["violations"],
    ...(options.onlyRules
      ? { runOnly: { type: "rule", values: options.onlyRules } }
      : {
          runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
          rules: Object.fromEntries(["label-content-name-mismatch", ...also].map((id) => [id, { enabled: true }])),
        }),
  };
  const exclude = (options.exclude ?? []).map((selector) => [selector]);
  const results = await runAxe(page, exclude.length > 0 ? { exclude } : "document", runOptions);
  const bad = results.violations.filter(
    (v) => v.impact === "serious" || v.impact === "critical" || also.includes(v.id),
  );
  return bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * axe-core run in the page itself, put there once per document. @axe-core/playwright's analyze() opened a blank page
 * for every call to merge the frames' results (axe.finishRun): 0.75 s of Chromium's CPU a call against 0.3 s for the
 * rules themselves, on ~750 calls a run.
 */
async function runAxe(page: Page, context: { exclude: string[][] } | "document", options: RunOptions) {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    ([context, options]) =>
      (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<AxeResults> } }).axe.run(
        context === "document" ? document : context,
        options,
      ),
    [context, options] as const,
  );
}

/** Saves a screenshot under test-results/ for people to look at (the viewport, or the whole page). */
export async function snap(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await page.screenshot({
    path: path.join("test-results", "screens", `${name}.png`),
    fullPage: options.fullPage ?? false,
  });
}

/** The text of the page's first h1 ("" before there is one). A page in transition may show two for a moment. */
export async function heading(page: Page): Promise<string> {
  return (await page.getByRole("heading", { level: 1 }).first().textContent()) ?? "";
}

/** The text of the page's h1, which must be the only one (Playwright's strict locator throws otherwise). */
export async function soleHeading(page: Page): Promise<string> {
  return (await page.getByRole("heading", { level: 1 }).textContent()) ?? "";
}

/**
 * Goes to `url` and waits until its h1 matches `title` (a string: contained in it), lazy pages and data loaded;
 * never the placeholder of a route not built yet.
 */
export async function open(page: Page, url: string, title: string | RegExp) {
  await page.goto(url);
  await eventually(() => heading(page)).toMatch(title instanceof RegExp ? title : new RegExp(title));
  expect(await page.getByText("En préparation").count()).toBe(0);
}

/** Until the service worker controls the page, i.e. the app shell is precached. */
export async function waitForControl(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: START });
}

/** A short random tag for names that must not collide with other tests' on a shared database. */
export const unique = (length = 6) => randomUUID().replaceAll("-", "").slice(0, length);

/** A fresh address of the test domain. */
export const uniqueEmail = (prefix: string) => `${prefix}-${unique(8)}@test.fidele.local`;

/** How far each wheel label is turned on screen, in whole degrees (0: upright), the wheel's turn included. */
export async function wheelLabelTurns(page: Page): Promise<number[]> {
  return page.getByTestId("wheel").evaluate((wheel) =>
    [...wheel.querySelectorAll("[data-wheel-label]")].map((label) => {
      const m = new DOMMatrix(getComputedStyle(wheel).transform).multiply(
        new DOMMatrix(getComputedStyle(label).transform),
      );
      const degrees = Math.round((Math.atan2(m.b, m.a) * 180) / Math.PI);
      return degrees === 0 ? 0 : ((degrees % 360) + 360) % 360;
    }),
  );
}
