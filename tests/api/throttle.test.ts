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

/** Per client address, sign-in failures are limited to 30 a minute (auth-proxy.ts); a few more to spare. */
const PER_ADDRESS_CEILING = 32;

/**
 * Failed sign-ins for ever-new e-mails from one client until one gets 429 (or the
 * ceiling is reached); the statuses in order.
 */
async function failuresUntilLimited(client: ReturnType<TestApp["client"]>, headers: () => Record<string, string>) {
  const statuses: number[] = [];
  for (let i = 0; i < PER_ADDRESS_CEILING; i++) {
    const res = await failedSignIn(client, `n${i}-${crypto.randomUUID()}@test.fidele.local`, { headers: headers() });
    statuses.push(res.status);
    if (res.status !== 401) break;
  }
  return statuses;
}

describe("failed sign-ins, in one process", () => {
  it("the 4th failure for one e-mail within 10 s gets 429, in French, with Retry-After", async () => {
    const user = await t.createUser();
    const c = t.client();
    for (let i = 0; i < 3; i++) expect((await failedSignIn(c, user.email)).status).toBe(401);
    const fourth = await failedSignIn(c, user.email);
    expect(fourth.status).toBe(429);
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
    for (let i = 0; i < 3; i++) expect((await failedSignIn(t.client(), user.email)).status).toBe(401);
    expect((await failedSignIn(t.client(), user.email)).status).toBe(429);
  });

  it("a forged X-Forwarded-For changes nothing when TRUST_PROXY is unset", async () => {
    const user = await t.createUser();
    const c = t.client();
    for (let i = 0; i < 3; i++) {
      expect((await failedSignIn(c, user.email, { headers: { "x-forwarded-for": randomIp() } })).status).toBe(401);
    }
    expect((await failedSignIn(c, user.email, { headers: { "x-forwarded-for": randomIp() } })).status).toBe(429);
  });

  it("a forged X-Forwarded-For does not give a machine a fresh bucket either", async () => {
    // Different e-mails, one machine, a new forged address each time: the machine's own limit
    // (failures per client address) still stops it. Were the header believed, it never would.
    const statuses = await failuresUntilLimited(t.client(), () => ({ "x-forwarded-for": randomIp() }));
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
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
    const statuses = await failuresUntilLimited(proxied.client(), () => ({
      "x-forwarded-for": `${randomIp()}, 203.0.113.77`,
    }));
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
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

      const user = await t.createUser();
      const statuses = [];
      for (const server of [a, b, a, b, a]) statuses.push(await attempt(server, user.email));
      expect(statuses).toEqual([401, 401, 401, 429, 429]);

      // The other way round: the 4th lands on the first process.
      const other = await t.createUser();
      const second = [];
      for (const server of [b, a, b, a]) second.push(await attempt(server, other.email));
      expect(second).toEqual([401, 401, 401, 429]);

      // Neither process had trouble on the way (a 429 must come from the limit, not a failure).
      expect(a.stdout()).not.toContain(`"level":"error"`);
      expect(b.stdout()).not.toContain(`"level":"error"`);
    },
    90_000,
  );
});
