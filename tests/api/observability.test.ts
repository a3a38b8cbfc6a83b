import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  createTestApp,
  migratedDataDir,
  type ServerProcess,
  spawnServer,
  type TestApp,
  waitHealthy,
} from "../setup/api.ts";
import { createScratchDatabase } from "../setup/scratch-db.ts";
import { eventually } from "../setup/eventually.ts";

/**
 * Watching it (ADR 0038): liveness apart from readiness, /metrics behind its token with the series an operator
 * needs, the platform console reading the same figures, and a spawned server's stdout as JSON lines.
 */
const url = inject("testDatabaseUrl");
const TOKEN = "metrics-token-0123456789";
let t: TestApp;
let plain: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  plain = await createTestApp({ database: t.deps.database });
});
afterAll(async () => {
  await t?.close();
});

describe("liveness and readiness", () => {
  it("live answers while the job engine is not started; ready waits for it, then says so", async () => {
    const live = await plain.request("/api/health/live");
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    const before = await plain.request("/api/health/ready");
    expect(before.status).toBe(503);
    expect(await before.json()).toEqual({
      status: "unavailable",
      checks: { database: true, migrations: true, jobs: false },
    });
    await t.deps.jobs.start(t.deps);
    const after = await t.request("/api/health/ready");
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ status: "ready", checks: { database: true, migrations: true, jobs: true } });
    // /api/health is as before.
    expect(await (await t.request("/api/health")).json()).toMatchObject({ status: "ok" });
  });

  it.skipIf(Boolean(url))(
    "a database behind this build's migrations is not ready (PGlite pass: its own database)",
    async () => {
      const { db } = t.deps;
      const [last] = (
        await db.execute<{ id: number; created_at: string }>(
          sql`select id, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
        )
      ).rows;
      await db.execute(sql`update drizzle.__drizzle_migrations set created_at = created_at - 1 where id = ${last!.id}`);
      try {
        const res = await t.request("/api/health/ready");
        expect(res.status).toBe(503);
        expect((await res.json()).checks).toEqual({ database: true, migrations: false, jobs: true });
        expect((await t.request("/api/health/live")).status).toBe(200);
      } finally {
        await db.execute(
          sql`update drizzle.__drizzle_migrations set created_at = ${last!.created_at} where id = ${last!.id}`,
        );
      }
    },
  );
});

describe("GET /metrics", () => {
  it("does not exist without METRICS_TOKEN", async () => {
    const res = await plain.request("/metrics");
    expect(res.status).toBe(404);
  });

  it("asks for the token: none or a wrong one is a 401", async () => {
    const none = await t.request("/metrics");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    const wrong = await t.request("/metrics", { headers: { authorization: "Bearer not-the-token-at-all" } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain("fidele_");
  });

  it("with the token: request latency per route pattern, database pool, event loop, jobs, sends", async () => {
    await t.request("/api/health");
    await t.request(`/api/shops/${randomBytes(4).toString("hex")}?q=quelqu.un@example.com`);
    await t.deps.jobs.start(t.deps);
    await t.deps.jobs.send("redemptions.expire", {}, { startAfter: 3600 });
    const res = await t.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(
      /fidele_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_class="2xx"\} [1-9]/,
    );
    // The route pattern, never the address asked for (nor its query).
    expect(text).toMatch(/route="\/api\/shops\/:[a-zA-Z]+"/);
    expect(text).not.toContain("example.com");
    expect(text).toMatch(/fidele_db_pool_connections\{state="total"\} [1-9]/);
    expect(text).toMatch(/fidele_db_pool_connections\{state="waiting"\} \d/);
    expect(text).toMatch(/nodejs_eventloop_lag_p99_seconds \d/);
    // Figures read from the database are cached for a second: the job just queued shows on a later scrape.
    await eventually(
      async () =>
        (await (await t.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } })).text()).match(
          /fidele_jobs\{queue="redemptions.expire",state="created"\} ([0-9]+)/,
        )?.[1],
      { interval: 500 },
    ).toMatch(/^[1-9]/);
    expect(text).toMatch(/fidele_jobs\{queue="messages.send",state="failed"\} \d/);
    expect(text).toMatch(/fidele_jobs_engine_started 1/);
    for (const channel of ["push", "email", "sms", "inapp"]) {
      expect(text).toMatch(new RegExp(`fidele_message_deliveries\\{channel="${channel}",status="delivered"\\} \\d`));
      expect(text).toMatch(new RegExp(`fidele_message_deliveries\\{channel="${channel}",status="failed"\\} \\d`));
    }
    expect(text).toMatch(/fidele_database_up 1/);
  });

  it("the platform console's health shows the same figures", async () => {
    await t.deps.jobs.start(t.deps);
    const admin = await t.createUser({ role: "admin" });
    const browser = t.client();
    await browser.signIn(admin.email, admin.password);
    const read = async () => {
      const scrape = await (await t.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      const health = (await (await browser.request("/api/admin/overview")).json()).health;
      const total = (pattern: RegExp) => [...scrape.matchAll(pattern)].reduce((n, m) => n + Number(m[1]), 0);
      return {
        health,
        fromMetrics: {
          jobsQueued: total(/fidele_jobs\{queue="[^"]+",state="(?:created|retry)"\} (\d+)/g),
          jobsFailed: total(/fidele_jobs\{queue="[^"]+",state="failed"\} (\d+)/g),
          poolTotal: total(/fidele_db_pool_connections\{state="total"\} (\d+)/g),
          pushDelivered: total(/fidele_message_deliveries\{channel="push",status="delivered"\} (\d+)/g),
          outbox: total(/fidele_mail_outbox\{status="[^"]+"\} (\d+)/g),
        },
      };
    };
    // The start-up jobs run meanwhile: read until two readings in a row agree (they do once the queues settle).
    let reading = await read();
    const fromConsole = (health: typeof reading.health) => ({
      jobsQueued: health.jobsQueued,
      jobsFailed: health.jobsFailed,
      poolTotal: health.pool.total,
      pushDelivered: health.sends[0].delivered,
      outbox: health.outbox,
    });
    await eventually(async () => {
      reading = await read();
      return JSON.stringify(fromConsole(reading.health)) === JSON.stringify(reading.fromMetrics);
    }).toBe(true);
    const { health } = reading;
    expect(health.databaseUp).toBe(true);
    expect(health.jobsStarted).toBe(true);
    expect(health.pool.total).toBeGreaterThan(0);
    expect(health.sends.map((s: { channel: string }) => s.channel)).toEqual(["push", "email", "sms"]);
    expect(typeof health.eventLoopDelayMs).toBe("number");
  });
});

describe("request ids", () => {
  it("a sane X-Request-Id is kept and echoed; anything else is replaced by a new one", async () => {
    const kept = await t.request("/api/health", { headers: { "x-request-id": "lb-7f3a.42:x_y" } });
    expect(kept.headers.get("x-request-id")).toBe("lb-7f3a.42:x_y");
    const replaced = await t.request("/api/health", { headers: { "x-request-id": "a b<script>" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const fresh = await t.request("/api/does-not-exist");
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("logs of a running server", () => {
  let server: ServerProcess | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await server?.stop();
    await drop?.();
  });

  it("every line of stdout is JSON; request lines carry id, route, status, duration; never an address", async () => {
    const secret = randomBytes(32).toString("hex");
    let env: Record<string, string>;
    if (url) {
      const scratch = await createScratchDatabase(url, "logs");
      drop = scratch.drop;
      env = { DATABASE_URL: scratch.url, SECRET: secret };
    } else {
      env = { DATA_DIR: await migratedDataDir(), SECRET: secret };
    }
    server = await spawnServer({ ...env, APP_URL: "http://fidele.test", LOG_LEVEL: "info" });
    await waitHealthy(server);
    const email = `journal.${randomBytes(3).toString("hex")}@example.com`;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server!.url}${path}`, {
        method: "POST",
        headers: { origin: "http://fidele.test", "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const signUp = await post("/api/accounts/sign-up", {
      email,
      password: "un-mot-de-passe-solide",
      name: "Jeanne Journal",
    });
    expect(signUp.status).toBeLessThan(300);
    const refused = await post(
      "/api/auth/sign-in/email",
      { email, password: "pas-le-bon-mot-de-passe" },
      { "x-request-id": "req-from-proxy-1" },
    );
    expect(refused.status).toBe(401);
    expect(refused.headers.get("x-request-id")).toBe("req-from-proxy-1");
    await fetch(`${server.url}/api/shops/nope?email=${encodeURIComponent(email)}`);
    // Through Node, the edge's headers (lib/edge-headers.ts) are set on Node's response before the route: the same
    // headers as the in-process answer, on a success, an error and a gzipped answer alike.
    const headersOf = (res: Response) =>
      [...res.headers.entries()].filter(
        ([k]) =>
          !["date", "x-request-id", "content-length", "connection", "keep-alive", "transfer-encoding"].includes(k),
      );
    const inProcess = headersOf(await t.request("/api/health"));
    expect(inProcess.map(([k]) => k)).toEqual(expect.arrayContaining(["content-security-policy", "cache-control"]));
    const identity = { "accept-encoding": "identity" };
    const health = await fetch(`${server.url}/api/health`, { headers: { ...identity, "x-request-id": "req-2" } });
    expect(health.headers.get("x-request-id")).toBe("req-2");
    expect(headersOf(health)).toEqual(inProcess);
    const missing = await fetch(`${server.url}/api/nope`, { headers: identity });
    expect(missing.status).toBe(404);
    expect(headersOf(missing)).toEqual(headersOf(await t.request("/api/nope")));
    const page = await fetch(`${server.url}/api/openapi.json`, { headers: { "accept-encoding": "gzip" } });
    expect(page.headers.get("content-encoding")).toBe("gzip");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect((await page.json()).openapi).toMatch(/^3\./);
    expect(await server.stop()).toBe(0);
    const out = server.stdout();
    const lines = out.split("\n").filter((l) => l.length > 0);
    expect(lines.length).toBeGreaterThan(4);
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not JSON: ${line}`);
      }
    });
    const requests = parsed.filter((l) => l.msg === "request");
    expect(requests.length).toBeGreaterThanOrEqual(4);
    for (const line of requests) {
      expect(line).toMatchObject({
        level: "info",
        requestId: expect.any(String),
        route: expect.stringMatching(/^\//),
        status: expect.any(Number),
        durationMs: expect.any(Number),
      });
      expect(typeof line.time).toBe("string");
    }
    expect(requests.find((l) => l.requestId === "req-from-proxy-1")).toMatchObject({
      route: "/api/auth/*",
      status: 401,
    });
    expect(requests.find((l) => l.route === "/api/health" && l.status === 200)).toBeDefined();
    // Nothing that names a person: no address (the query string is never logged), no name.
    expect(out).not.toContain("example.com");
    expect(out).not.toMatch(/[\w.+-]+@[\w-]+\.[a-z]{2,}/i);
    expect(out).not.toContain("Jeanne");
    expect(out).not.toContain("?");
  });
});
