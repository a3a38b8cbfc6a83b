import { availableParallelism, loadavg } from "node:os";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { DEMO_ACCOUNTS, seedDemo } from "../src/server/db/seed.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import { launchChromium } from "../tests/setup/chromium.ts";
import { ensureBuild, serveBuild, table, writeResult } from "./lib.ts";

/**
 * Issue 25 row 11, speed as a person feels it: a production build served by the real server (PGlite in its worker,
 * as `npm start` runs), the demo data, Chromium at 390×844 with no HTTP cache (a fresh browser context each run).
 *
 * - sign-in: the demo owner types their address and password on /login and taps « Se connecter »; from the tap to
 *   the first figure of their back office (where an owner lands), and the sign-in request itself;
 * - /admin: the owner opens their dashboard; from the navigation's start to the first figures (the « Clients » tile
 *   filled in) and to the charts drawn;
 * - counter: the owner opens /reader; from the navigation's start to the first code on screen (its short code).
 *
 * Times are read on the page's own clock (performance.now(), 0 at the navigation's start), on the loopback and on a
 * throttled mobile network (NETWORKS). The first run after the server's start is shown apart (cold); then each is
 * measured BENCH_FELT_RUNS times (default 5) per network, the median kept. Budgets (issue 25, on the loopback):
 * figures < 1 s, sign-in < 1 s. The 1-minute load average is printed: on a busy machine these are not the budget's
 * figures. BENCH_FELT_TRACE=1 prints each page's requests as a waterfall.
 */
const RUNS = Math.max(1, Number(process.env.BENCH_FELT_RUNS ?? 5));
const BUDGET_MS = { signIn: 1_000, figures: 1_000 };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

type Probe = "figures" | "charts" | "code";

/** The page's clock when `what` is first on screen (checked every frame). */
const when = (page: Page, what: Probe) =>
  page
    .waitForFunction(
      (probe) => {
        const shown =
          probe === "figures"
            ? // The dashboard's « Clients » tile shows a number.
              [...document.querySelectorAll("dt")].some(
                (dt) => dt.textContent === "Clients" && /\d/.test(dt.nextElementSibling?.textContent ?? ""),
              )
            : probe === "charts"
              ? // Its four charts are drawn.
                document.querySelectorAll("figure[data-chart] svg").length >= 4
              : (document.querySelector("[data-testid=short-code]")?.textContent?.trim().length ?? 0) > 0;
        return shown ? performance.now() : false;
      },
      what,
      { polling: "raf", timeout: 60_000 },
    )
    .then((handle) => handle.jsonValue() as Promise<number>)
    .catch(async (error: unknown) => {
      const h1 = await page
        .locator("h1")
        .allTextContents()
        .catch(() => []);
      throw new Error(`${what} never shown on ${page.url()} (h1: ${h1.join(" | ")}): ${String(error)}`);
    });

/**
 * The page's requests as a waterfall (BENCH_FELT_TRACE=1): each one's start and end on the page's clock, for the
 * first run, to see what waits on what.
 */
function watchRequests(page: Page) {
  const seen: { what: string; start: number; end: number }[] = [];
  page.on("requestfinished", (request) => {
    const url = new URL(request.url());
    const t = request.timing();
    const start = t.startTime; // ms since the epoch
    seen.push({
      what: `${request.method()} ${url.pathname}${url.search}`.slice(0, 90),
      start,
      end: start + t.responseEnd,
    });
  });
  return async () => {
    const origin = await page.evaluate(() => performance.timeOrigin);
    return seen
      .sort((a, b) => a.start - b.start)
      .map(
        (r) =>
          `    ${String(Math.round(r.start - origin)).padStart(5)} → ${String(Math.round(r.end - origin)).padStart(5)}  ${r.what}`,
      )
      .join("\n");
  };
}

/**
 * The networks a run is measured on: this machine's loopback, and a phone's mobile network as Lighthouse's mobile
 * preset models it (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up; Chromium's own throttling), where each round
 * trip a page waits for shows.
 */
const NETWORKS = {
  local: null,
  "4g": { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 },
} as const;
type Network = keyof typeof NETWORKS;

async function throttle(context: BrowserContext, page: Page, network: Network) {
  const conditions = NETWORKS[network];
  if (!conditions) return;
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, ...conditions });
}

const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  locale: "fr-FR",
  timezoneId: "Europe/Paris",
  serviceWorkers: "block",
} as const;

type Run = { signInTap: number; signInRequest: number; figures: number; charts: number; counterCode: number };

async function oneRun(browser: Browser, baseUrl: string, network: Network, log: boolean): Promise<Run> {
  const { email, password } = DEMO_ACCOUNTS.owner;
  const signInOverHttp = async (context: BrowserContext) => {
    const res = await context.request.post(`${baseUrl}/api/auth/sign-in/email`, {
      data: { email, password },
      headers: { origin: baseUrl },
    });
    if (!res.ok()) throw new Error(`sign-in: ${res.status()}`);
  };

  // Sign-in, as a person does it: from the tap on « Se connecter » to the first figure where an owner lands.
  const context = await browser.newContext({ ...PHONE, baseURL: baseUrl });
  let page = await context.newPage();
  await throttle(context, page, network);
  const signInTrace = watchRequests(page);
  await page.goto("/login");
  await page.getByLabel("Adresse e-mail").fill(email);
  await page.getByLabel("Mot de passe", { exact: true }).fill(password);
  // The schemas the form checks with download on the first focus: a person types for longer than that takes.
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => {
    document.addEventListener("submit", () => Object.assign(window, { tappedAt: performance.now() }), {
      capture: true,
      once: true,
    });
  });
  const signInResponse = page.waitForResponse((r) => r.url().endsWith("/api/auth/sign-in/email"));
  await page.getByRole("button", { name: "Se connecter" }).click();
  const response = await signInResponse;
  const signedInFigures = await when(page, "figures");
  const tappedAt = await page.evaluate(() => (window as unknown as { tappedAt: number }).tappedAt);
  const signInRequest = response.request().timing().responseEnd;
  if (log) console.log(`  ${network} sign-in (tap at ${Math.round(tappedAt)} ms):\n${await signInTrace()}`);
  await context.close();

  // /admin opened by an owner already signed in, nothing in the browser's cache.
  const admin = await browser.newContext({ ...PHONE, baseURL: baseUrl });
  await signInOverHttp(admin);
  page = await admin.newPage();
  await throttle(admin, page, network);
  const adminTrace = watchRequests(page);
  await page.goto("/admin", { waitUntil: "commit" });
  const figures = await when(page, "figures");
  const charts = await when(page, "charts");
  if (log) console.log(`  ${network} /admin:\n${await adminTrace()}`);
  await admin.close();

  // The counter's first code, nothing cached (no code fetched yet on this phone).
  const counter = await browser.newContext({ ...PHONE, baseURL: baseUrl });
  await signInOverHttp(counter);
  page = await counter.newPage();
  await throttle(counter, page, network);
  const readerTrace = watchRequests(page);
  await page.goto("/reader", { waitUntil: "commit" });
  const counterCode = await when(page, "code");
  if (log) console.log(`  ${network} /reader:\n${await readerTrace()}`);
  await counter.close();
  return {
    signInTap: Math.round(signedInFigures - tappedAt),
    signInRequest: Math.round(signInRequest),
    figures: Math.round(figures),
    charts: Math.round(charts),
    counterCode: Math.round(counterCode),
  };
}

export async function runFelt(): Promise<boolean> {
  const clientDir = ensureBuild();
  const { baseUrl, server } = await serveBuild(clientDir, { signIn: true });
  const browser = await launchChromium();
  try {
    await seedDemo(server.deps, createLogger("warn"));
    // The first run after the server's start: its code paths not yet compiled, nothing cached anywhere. Kept apart.
    const cold = await oneRun(browser, baseUrl, "local", Boolean(process.env.BENCH_FELT_TRACE));
    const runs: Record<Network, Run[]> = { local: [], "4g": [] };
    const loads: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      for (const network of Object.keys(NETWORKS) as Network[]) {
        loads.push(loadavg()[0]!);
        runs[network].push(await oneRun(browser, baseUrl, network, Boolean(process.env.BENCH_FELT_TRACE) && i === 0));
      }
    }
    const m = (network: Network, key: keyof Run) => median(runs[network].map((r) => r[key]));
    const row = (label: string, key: keyof Run, budget: number | string): (string | number)[] => [
      label,
      cold[key],
      m("local", key),
      m("4g", key),
      budget,
    ];
    const rows = [
      row("sign-in: tap → first figure of /admin", "signInTap", BUDGET_MS.signIn),
      row("  the sign-in request alone", "signInRequest", "—"),
      row("/admin: first figures", "figures", BUDGET_MS.figures),
      row("/admin: charts drawn", "charts", "—"),
      row("/reader: first code", "counterCode", "—"),
    ];
    const load = Math.round(median(loads) * 100) / 100;
    console.log(table(["felt (ms)", "1st after start", "median", "median 4G", "budget"], rows));
    console.log(
      `runs: ${RUNS} per network, 1-minute load average (median): ${load} on ${availableParallelism()} cores`,
    );
    const file = writeResult("felt", { cold, runs, rows, load });
    console.log(`→ ${file}`);
    return m("local", "signInTap") < BUDGET_MS.signIn && m("local", "figures") < BUDGET_MS.figures;
  } finally {
    await browser.close();
    await server.close();
  }
}
