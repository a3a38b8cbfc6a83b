import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { serve, type ServerType } from "@hono/node-server";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/server/app.ts";
import { DEFAULT_CLIENT_DIR } from "../../src/server/server.ts";
import { eventually, expectAccessible, snap, type Stack, startStack, waitForControl } from "../setup/e2e.ts";

/** Service workers install, and fake clocks run, slowly on a busy 2-core machine: these journeys get more time. */
/**
 * The installable app (issue 3, item 6): the service worker precaches the shell so the app opens offline, shows the
 * offline page for what needs the network, offers a waiting update with the banner, and turns the worker's push
 * messages into foreground notifications.
 *
 * A worker precaches every file of the build, so a rebuild of dist/client by another test run in the middle of an
 * install would make it fail. These tests therefore serve their own copy of the build (checked complete), through a
 * second server on the stack's database.
 */
let stack: Stack;
let built: string;
const servers: ServerType[] = [];
const copies: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  built = await copyBuild(DEFAULT_CLIENT_DIR);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  await Promise.all(copies.map((dir) => rm(dir, { recursive: true, force: true })));
  await stack?.close();
});

/** Whether every file sw.js precaches and index.html loads is there (a copy taken mid-rebuild is not). */
async function isComplete(dir: string): Promise<boolean> {
  const sw = await readFile(path.join(dir, "sw.js"), "utf8").catch(() => null);
  const index = await readFile(path.join(dir, "index.html"), "utf8").catch(() => null);
  if (!sw || !index) return false;
  const files = [
    ...[...sw.matchAll(/url:"([^"]+)"/g)].map((m) => m[1] as string),
    ...[...sw.matchAll(/"\.\/(workbox-[\w-]+)"/g)].map((m) => `${m[1]}.js`),
    ...[...index.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1] as string),
  ];
  return files.every((file) => existsSync(path.join(dir, file)));
}

/** The newest modification time under a folder (a build in progress keeps moving it). */
async function newestChange(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const times = await Promise.all(
    entries.filter((e) => e.isFile()).map(async (e) => (await stat(path.join(e.parentPath, e.name))).mtimeMs),
  );
  return Math.max(0, ...times);
}

/** Copies a build that is not being written (untouched for 3 s before and during the copy) and is complete. */
async function copyBuild(from: string): Promise<string> {
  for (let attempt = 0; attempt < 30; attempt += 1) {
    const before = await newestChange(from).catch(() => Date.now());
    if (Date.now() - before > 3_000) {
      const dir = path.join("test-results", `shell-pwa-${randomUUID()}`);
      copies.push(dir);
      await cp(from, dir, { recursive: true });
      const after = await newestChange(from).catch(() => Date.now());
      if (after === before && (await isComplete(dir))) return dir;
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  throw new Error(`${from} kept changing while being copied`);
}

/** Serves a copy of the build on a free port; returns its address. */
function serveBuild(dir: string): Promise<string> {
  const app = createApp({ deps: stack.deps, clientDir: path.resolve(dir) });
  return new Promise<string>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) =>
      resolve(`http://127.0.0.1:${info.port}`),
    );
    servers.push(server);
  });
}

/** A context where service workers run (127.0.0.1 is a secure origin), on a copy of the build. */
async function newPwaContext(dir = built) {
  return stack.newContext({ serviceWorkers: "allow", baseURL: await serveBuild(dir) });
}

/**
 * Waits until the page is controlled by an activated worker, i.e. the shell is precached. (If dist/client is rebuilt
 * while this runs, precaching fails and this times out: the worker never activates.)
 */

describe("offline", () => {
  let context: BrowserContext;
  afterAll(async () => {
    await context?.close();
  });

  it("opens the app shell with the network off after one visit", async () => {
    context = await newPwaContext();
    const page = await context.newPage();
    await page.goto("/");
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("cartes de fidélité");
    await waitForControl(page);

    await context.setOffline(true);
    // A fresh navigation, not a reload from memory: the document comes from the worker's precache.
    const response = await page.goto("/");
    expect(response?.fromServiceWorker()).toBe(true);
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("cartes de fidélité");
    await eventually(() => page.evaluate(() => navigator.onLine)).toBe(false);
    await snap(page, "shell-offline-home");

    // A signed-in page cannot know who is signed in without the network: it says so instead of a blank page or
    // the login page, and carries on once the network is back (here: a visitor, so on to the login page).
    await page.goto("/cartes-de-fidelite");
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Vous êtes hors connexion");
    await snap(page, "shell-offline-guarded");
    await context.setOffline(false);
    await page.waitForURL(/\/login\?redirect=%2Fcartes-de-fidelite$/);
  });

  it("shows the offline page for a navigation that needs the network", async () => {
    const page = await context.newPage();
    await page.goto("/");
    await waitForControl(page);
    await context.setOffline(true);
    // E-mail links go to the server itself (/api/auth/...): the shell cannot answer them.
    await page.goto("/api/auth/verify-email?token=abc");
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Vous êtes hors connexion");
    expect(await page.title()).toBe("Hors connexion · Fidèle");
    await eventually(() => page.getByRole("link", { name: "Réessayer" }).getAttribute("href")).toBe("");
    await snap(page, "shell-offline-page");
    await expectAccessible(page);
    await context.setOffline(false);
  });
});

describe("update banner", () => {
  // Its own copy of the build: rewriting its files plays "a new version was deployed".
  let clientDir: string;
  let context: BrowserContext;
  beforeAll(async () => {
    clientDir = await copyBuild(built);
  });
  afterAll(async () => {
    await context?.close();
  });

  /** Deploys "version 2": a changed index.html, and a sw.js whose precache lists its new revision. */
  async function deployNewVersion() {
    const indexPath = path.join(clientDir, "index.html");
    const oldIndex = await readFile(indexPath, "utf8");
    const newIndex = oldIndex.replace("<head>", '<head>\n    <meta name="fidele-build" content="2" />');
    const md5 = (text: string) => createHash("md5").update(text).digest("hex");
    const swPath = path.join(clientDir, "sw.js");
    const oldSw = await readFile(swPath, "utf8");
    const newSw = oldSw.replace(
      `{url:"index.html",revision:"${md5(oldIndex)}"}`,
      `{url:"index.html",revision:"${md5(newIndex)}"}`,
    );
    expect(newSw).not.toBe(oldSw);
    await writeFile(indexPath, newIndex);
    await writeFile(swPath, newSw);
  }

  it("appears when a new worker is waiting, and 'Recharger' reloads into it", async () => {
    context = await newPwaContext(clientDir);
    const page = await context.newPage();
    await page.goto("/");
    await waitForControl(page);
    const banner = page
      .getByRole("status")
      .filter({ hasText: "Une nouvelle version de l'application est disponible." });
    expect(await banner.count()).toBe(0);

    await deployNewVersion();
    // Opening the app again: the old worker still answers (no build marker), and the browser finds the new one,
    // which installs and waits.
    await page.reload();
    expect(await page.locator('meta[name="fidele-build"]').count()).toBe(0);
    await eventually(() => banner.isVisible()).toBe(true);
    expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(
      true,
    );
    await snap(page, "shell-update-banner");
    await expectAccessible(page);

    await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Recharger" }).click()]);
    // The new worker now controls the page and served the new shell.
    await eventually(() => page.locator('meta[name="fidele-build"]').count()).toBe(1);
    expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(
      false,
    );
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("cartes de fidélité");
    expect(await banner.count()).toBe(0);
  });
});

describe("foreground notifications", () => {
  it("shows a push from the worker as a notification with its tag and icon, closed after 5 s", async () => {
    const context = await newPwaContext();
    await context.grantPermissions(["notifications"]);
    // Record every notification the page creates, and when it is closed.
    await context.addInitScript(() => {
      type Shown = {
        title: string;
        body?: string;
        tag?: string;
        icon?: string;
        closed: boolean;
        instance: Notification;
      };
      const RealNotification = window.Notification;
      const shown: Shown[] = [];
      (window as unknown as { __notifications: Shown[] }).__notifications = shown;
      class RecordingNotification extends RealNotification {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          const record: Shown = {
            title,
            body: options?.body,
            tag: options?.tag,
            icon: options?.icon,
            closed: false,
            instance: this,
          };
          shown.push(record);
          const close = this.close.bind(this);
          this.close = () => {
            record.closed = true;
            close();
          };
        }
      }
      window.Notification = RecordingNotification as typeof Notification;
    });
    const page = await context.newPage();
    await page.clock.install();
    await page.goto("/");
    await waitForControl(page);
    // The registration module (loaded lazily) starts listening to the worker before it registers it, so a
    // registration means the listener is in place.
    await eventually(() => page.evaluate(async () => Boolean(await navigator.serviceWorker.getRegistration()))).toBe(
      true,
    );

    const [worker] = context.serviceWorkers();
    expect(worker).toBeDefined();
    const post = () =>
      worker!.evaluate(async () => {
        const scope = self as unknown as {
          clients: { matchAll: (o: object) => Promise<Array<{ postMessage: (m: unknown) => void }>> };
        };
        for (const client of await scope.clients.matchAll({ type: "window" })) {
          client.postMessage({
            type: "push",
            title: "Double points aujourd'hui",
            body: "La Fournée double vos points jusqu'à 19 h.",
          });
        }
      });
    const notifications = () =>
      page.evaluate(() =>
        (
          window as unknown as {
            __notifications: Array<{ title: string; body: string; tag: string; icon: string; closed: boolean }>;
          }
        ).__notifications.map(({ title, body, tag, icon, closed }) => ({ title, body, tag, icon, closed })),
      );

    await post();
    await eventually(notifications).toEqual([
      {
        title: "Double points aujourd'hui",
        body: "La Fournée double vos points jusqu'à 19 h.",
        tag: "foreground-notification",
        icon: "/pwa-192x192.png",
        closed: false,
      },
    ]);

    await page.clock.fastForward(4_000);
    expect((await notifications())[0]?.closed).toBe(false);
    await page.clock.fastForward(1_100);
    expect((await notifications())[0]?.closed).toBe(true);

    // A click closes it at once and brings the window forward.
    await post();
    await eventually(async () => (await notifications()).length).toBe(2);
    const focused = await page.evaluate(() => {
      let calls = 0;
      const realFocus = window.focus.bind(window);
      window.focus = () => {
        calls += 1;
        realFocus();
      };
      const last = (
        window as unknown as { __notifications: Array<{ instance: Notification; closed: boolean }> }
      ).__notifications.at(-1)!;
      last.instance.dispatchEvent(new Event("click"));
      return { calls, closed: last.closed };
    });
    expect(focused).toEqual({ calls: 1, closed: true });
    await context.close();
  });
});
