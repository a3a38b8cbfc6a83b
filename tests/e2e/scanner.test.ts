import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanUrl } from "../../src/domain/loyalty/scan-code.ts";
import { scans, shops } from "../../src/server/db/schema/index.ts";
import { launchChromium } from "../setup/chromium.ts";
import { eventually, expectAccessible, PHONE, snap, soleHeading, type Stack, startStack } from "../setup/e2e.ts";
import { SOON } from "../setup/timing.ts";
import { writeQrVideo } from "../fixtures/qr-video.ts";
import { posterFor, tokenFor } from "../api/shops-helpers.ts";

let stack: Stack;
let workDir: string;
beforeAll(async () => {
  stack = await startStack();
  workDir = await mkdtemp(path.join(tmpdir(), "fidele-scanner-"));
});
afterAll(async () => {
  await stack?.close();
  await rm(workDir, { recursive: true, force: true });
});

/** The counter screen's link as it is now: it stays valid 30 to 60 s, so it is made just before it is used. */
async function counterUrl(shopId: string) {
  const { scanUid, token } = await tokenFor(stack.deps.db, shopId);
  return scanUrl(stack.baseUrl, { scanUid, token, poster: null });
}

describe("/scanner", () => {
  it("decodes a QR code from the camera (Chromium's fake camera) and credits the visit, with no request leaving 127.0.0.1", async () => {
    // The printed poster's code: it does not expire while the video is written, Chromium starts and the person
    // signs in (a loaded machine took over a minute for that, longer than a counter code lives). The rotating code
    // goes the same way through the reader, and is pasted below.
    const owner = await stack.createUser();
    const shop = await stack.createShop(owner.id, { name: `Fleurs de Lise ${randomUUID().slice(0, 6)}` });
    await stack.deps.db.update(shops).set({ allowStaticPoster: true }).where(eq(shops.id, shop.id));
    const { poster } = await posterFor(stack.deps.db, shop.id);
    const url = scanUrl(stack.baseUrl, { scanUid: shop.scanUid, token: null, poster });
    const video = path.join(workDir, "counter-qr.y4m");
    await writeQrVideo(video, url);

    // A Chromium of its own: the fake camera plays the QR video, the permission prompt is accepted.
    const browser: Browser = await launchChromium([
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-video-capture=${video}`,
    ]);
    try {
      // zxing's wasm compiles only if the page's CSP allows it (script-src 'wasm-unsafe-eval').
      const csp = (await fetch(`${stack.baseUrl}/scanner`)).headers.get("content-security-policy") ?? "";
      expect(csp, "the CSP must allow WebAssembly for the QR reader: add 'wasm-unsafe-eval' to script-src").toContain(
        "'wasm-unsafe-eval'",
      );
      const shopper = await stack.createUser();
      const context = await browser.newContext({ ...PHONE, baseURL: stack.baseUrl });
      await stack.signIn(context, shopper.email, shopper.password);
      const requests: string[] = [];
      context.on("request", (request) => {
        requests.push(request.url());
      });
      const page = await context.newPage();

      // The camera is already allowed here (fake UI): the scanner starts without asking, and finds the code.
      await page.goto("/scanner");
      await page.waitForURL((u) => u.pathname === `/boutique/${shop.scanUid}`, { timeout: SOON });
      expect(page.url()).toBe(url);
      await eventually(() => soleHeading(page)).toBe("Passage validé !");
      await snap(page, "scanner-decoded-accepted");

      const recorded = await stack.deps.db
        .select({ outcome: scans.outcome })
        .from(scans)
        .where(eq(scans.userId, shopper.id));
      expect(recorded.map((s) => s.outcome)).toEqual(["accepted"]);

      // The wasm came from this site, and nothing else left the machine.
      expect(requests.some((u) => new URL(u).pathname.endsWith(".wasm"))).toBe(true);
      const outside = requests.filter((u) => {
        const { protocol, hostname } = new URL(u);
        return !(protocol === "data:" || protocol === "blob:" || hostname === "127.0.0.1");
      });
      expect(outside).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  });

  it("says so in French when the person refuses the camera, and takes a pasted code instead", async () => {
    const owner = await stack.createUser();
    const shop = await stack.createShop(owner.id, { name: `Épicerie Lou ${randomUUID().slice(0, 6)}` });
    const shopper = await stack.createUser();
    // A camera, but no one to accept the permission prompt: headless Chromium refuses it.
    const browser: Browser = await launchChromium(["--use-fake-device-for-media-stream"]);
    const context = await browser.newContext({ ...PHONE, baseURL: stack.baseUrl });
    await stack.signIn(context, shopper.email, shopper.password);
    const page = await context.newPage();
    const requests: string[] = [];
    page.on("request", (request) => {
      requests.push(request.url());
    });
    await page.goto("/scanner");
    await eventually(() => soleHeading(page)).toBe("Scanner un code");
    await expectAccessible(page);
    await snap(page, "scanner-intro");
    // The reader (script and wasm) is fetched only once the person turns the camera on.
    expect(requests.filter((u) => /\.wasm|qr-detector/.test(u))).toEqual([]);
    await page.getByRole("button", { name: "Activer la caméra" }).click();
    const alert = page.getByRole("alert");
    await eventually(() => alert.isVisible()).toBe(true);
    expect(await alert.textContent()).toContain("Pour scanner, autorisez la caméra pour ce site");
    expect(await page.getByText("Accès à la caméra refusé").isVisible()).toBe(true);
    await eventually(() => page.getByRole("button", { name: "Réessayer" }).isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "scanner-camera-blocked");

    // A wrong code, then the link copied from the counter screen.
    const field = page.getByLabel(
      "Tapez le code de 6 caractères affiché sous le QR code du comptoir (ou collez son lien).",
    );
    await field.fill("https://example.org/autre-chose");
    await page.getByRole("button", { name: "Valider le code" }).click();
    await eventually(() => page.getByText("Ce code n'est pas reconnu.", { exact: false }).isVisible()).toBe(true);
    await snap(page, "scanner-manual-error");
    await field.fill(await counterUrl(shop.id));
    await page.getByRole("button", { name: "Valider le code" }).click();
    await page.waitForURL((u) => u.pathname === `/boutique/${shop.scanUid}`);
    await eventually(() => soleHeading(page)).toBe("Passage validé !");
    await browser.close();
  });

  it("says so when the phone has no camera", async () => {
    const shopper = await stack.createUser();
    const context = await stack.newContext();
    await stack.signIn(context, shopper.email, shopper.password);
    const page = await context.newPage();
    await page.goto("/scanner");
    await page.getByRole("button", { name: "Activer la caméra" }).click();
    await eventually(() => page.getByText("Aucune caméra trouvée").isVisible()).toBe(true);
    expect(await page.getByRole("alert").textContent()).toContain("Cet appareil n'a pas de caméra utilisable.");
    await snap(page, "scanner-no-camera");
    await context.close();
  });
});
