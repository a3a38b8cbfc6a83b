import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestApp, randomIp, type ServerProcess, spawnServer, type TestApp, waitHealthy } from "../setup/api.ts";

/**
 * Sign-in throttling (issue 2): the 4th failed sign-in for one address within 10 s
 * gets 429, whatever X-Forwarded-For says when no proxy is configured, and across
 * server processes (the counts live in the database).
 *
 * The windows are the server's clock (10 s per e-mail, 60 s per address): the attempts that must fall in one window
 * are sent together, so a busy machine, where each sign-in's password hashing takes seconds, cannot stretch them
 * over two windows. Which of them lands last is then the server's choice: the counts are asserted, not the order.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const failedSignIn = (
  client: ReturnType<TestApp["client"]>,
  email: string,
  init: { ip?: string; headers?: Record<string, string> } = {},
) => client.request("/api/auth/sign-in/email", { json: { email, password: "pas-le-bon-mdp" }, ...init });

/** Per client address, sign-in failures are limited to 30 a minute (auth-proxy.ts). */
const PER_ADDRESS_LIMIT = 30;

/** One more failed sign-in than the per-address limit, for ever-new e-mails from one client, all at once. */
async function overThePerAddressLimit(client: ReturnType<TestApp["client"]>, headers: () => Record<string, string>) {
  const attempts = Array.from({ length: PER_ADDRESS_LIMIT + 1 }, (_, i) =>
    failedSignIn(client, `n${i}-${crypto.randomUUID()}@test.fidele.local`, { headers: headers() }),
  );
  return countStatuses(await Promise.all(attempts));
}

/** Statuses and how many times each came: `{ 401: 3, 429: 1 }`. */
function countStatuses(responses: { status: number }[]) {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

describe("failed sign-ins, in one process", () => {
  it("the 4th failure for one e-mail within 10 s gets 429, in French, with Retry-After", async () => {
    const user = await t.createUser();
    const c = t.client();
    const attempts = await Promise.all(Array.from({ length: 4 }, () => failedSignIn(c, user.email)));
    expect(countStatuses(attempts)).toEqual({ 401: 3, 429: 1 });
    const fourth = attempts.find((a) => a.status === 429)!;
    expect(Number(fourth.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = await fourth.json();
    expect(body.code).toBe("RATE_LIMITED");
    expect(body.message).toMatch(/^Trop de tentatives\. Réessayez dans \d+ secondes?\.$/);
    // Even the right password is refused while the e-mail is throttled.
    expect(
      (await c.request("/api/auth/sign-in/email", { json: { email: user.email, password: user.password } })).status,
    ).toBe(429);
  });

  it("counts per e-mail even when every attempt comes from another machine", async () => {
    const user = await t.createUser();
    const attempts = await Promise.all(Array.from({ length: 4 }, () => failedSignIn(t.client(), user.email)));
    expect(countStatuses(attempts)).toEqual({ 401: 3, 429: 1 });
  });

  it("a forged X-Forwarded-For changes nothing when TRUST_PROXY is unset", async () => {
    const user = await t.createUser();
    const c = t.client();
    const attempts = await Promise.all(
      Array.from({ length: 4 }, () => failedSignIn(c, user.email, { headers: { "x-forwarded-for": randomIp() } })),
    );
    expect(countStatuses(attempts)).toEqual({ 401: 3, 429: 1 });
  });

  it("a forged X-Forwarded-For does not give a machine a fresh bucket either", async () => {
    // Different e-mails, one machine, a new forged address each time: the machine's own limit
    // (failures per client address) still stops it. Were the header believed, it never would.
    expect(await overThePerAddressLimit(t.client(), () => ({ "x-forwarded-for": randomIp() }))).toEqual({
      401: PER_ADDRESS_LIMIT,
      429: 1,
    });
  });

  it("a successful sign-in does not count as a failure", async () => {
    const user = await t.createUser();
    for (let i = 0; i < 6; i++) {
      const res = await t
        .client()
        .request("/api/auth/sign-in/email", { json: { email: user.email, password: user.password } });
      expect(res.status).toBe(200);
    }
  });
});

describe("behind a proxy (TRUST_PROXY=1)", () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await createTestApp({ env: { TRUST_PROXY: "1" } });
  });
  afterAll(async () => {
    await proxied?.close();
  });

  it("the proxy's last X-Forwarded-For hop is the client, so clients behind one proxy are told apart", async () => {
    const proxy = proxied.client();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await failedSignIn(proxy, `p${i}-${crypto.randomUUID()}@test.fidele.local`, {
        headers: { "x-forwarded-for": `203.0.113.9, ${randomIp()}` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401]);
  });

  it("and one client is still limited, whatever it puts first in X-Forwarded-For", async () => {
    // A client address of its own for this run (the shared PostgreSQL database keeps the counts of earlier runs).
    const client = randomIp();
    expect(
      await overThePerAddressLimit(proxied.client(), () => ({ "x-forwarded-for": `${randomIp()}, ${client}` })),
    ).toEqual({ 401: PER_ADDRESS_LIMIT, 429: 1 });
  });
});

const onPostgres = Boolean(inject("testDatabaseUrl"));

let nextLoopback = 2;
/** POST over real HTTP from a distinct loopback source address; resolves with the status. */
function post(
  server: ServerProcess,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<number> {
  const payload = JSON.stringify(body);
  const localAddress = `127.0.${Math.floor(nextLoopback / 250)}.${(nextLoopback++ % 250) + 2}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.url}${path}`,
      {
        method: "POST",
        localAddress,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(payload),
          origin: "http://fidele.test",
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

describe("two server processes on one PostgreSQL", () => {
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it.skipIf(!onPostgres)(
    "the 4th failed sign-in within 10 s gets 429 whichever process answers (skipped without TEST_DATABASE_URL)",
    async () => {
      // Two processes behind one address, as behind a load balancer: same APP_URL and SECRET.
      const env = {
        DATABASE_URL: inject("testDatabaseUrl"),
        APP_URL: "http://fidele.test",
        SECRET: randomBytes(32).toString("hex"),
        DATA_DIR: await mkdtemp(path.join(tmpdir(), "fidele-two-")),
        SEED_DEMO: "0",
      };
      servers.push(await spawnServer(env), await spawnServer(env));
      await Promise.all(servers.map((s) => waitHealthy(s)));
      const [a, b] = servers as [ServerProcess, ServerProcess];

      // Every attempt from its own loopback address (127.0.0.0/8) and with a forged
      // X-Forwarded-For: only the per-e-mail count, shared through the database, can stop it.
      const attempt = (server: ServerProcess, email: string) =>
        post(
          server,
          "/api/auth/sign-in/email",
          { email, password: "pas-le-bon-mdp" },
          { "x-forwarded-for": randomIp() },
        );

      // Five attempts at once, spread over both processes (as the header says: a busy machine, hashing for seconds,
      // once stretched a first three and a later 4th and 5th over two windows): three failures, then 429s.
      const user = await t.createUser();
      const five = await Promise.all([a, b, a, b, a].map((server) => attempt(server, user.email)));
      expect(countStatuses(five.map((status) => ({ status })))).toEqual({ 401: 3, 429: 2 });

      // The other way round: more attempts on the second process.
      const other = await t.createUser();
      const four = await Promise.all([b, a, b, b].map((server) => attempt(server, other.email)));
      expect(countStatuses(four.map((status) => ({ status })))).toEqual({ 401: 3, 429: 1 });

      // Neither process had trouble on the way (a 429 must come from the limit, not a failure).
      expect(a.stdout()).not.toContain(`"level":"error"`);
      expect(b.stdout()).not.toContain(`"level":"error"`);
    },
  );
});
