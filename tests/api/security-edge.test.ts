import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { profiles, user as userTable } from "../../src/server/db/schema/index.ts";
import { createTestApp, TEST_APP_URL, type TestApp } from "../setup/api.ts";
import { shopWithOwner } from "./shops-helpers.ts";
import { SOON } from "../setup/timing.ts";

/**
 * The edge of the API (issue 8, rows 3, 4, 6, 7, 8, 9): input hygiene, concurrent
 * sign-ups, timing, cross-site writes, the body limit and the connection after a 413.
 */
let t: TestApp;
let server: ServerType;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  // Rows 8 and 9 are about bytes on a socket: the same app behind a real HTTP server.
  await new Promise<void>((resolve) => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
      port = info.port;
      resolve();
    });
  });
});
afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await t?.close();
});

const origin = new URL(TEST_APP_URL).origin;
const unknownEmail = () => `inconnu-${crypto.randomUUID().slice(0, 8)}@test.fidele.local`;

async function expectFrench400(res: Response, field: string) {
  expect(res.status).toBe(400);
  const body = await res.json();
  expect(body.code).toBe("VALIDATION");
  expect(Object.keys(body.fields ?? {})).toContain(field);
  expect(body.message).toMatch(/Le champ « .+ » (contient|est trop long|doit)/);
  expect(JSON.stringify(body)).not.toMatch(/stack|postgres|SQL|at \//i);
}

describe("row 3: text PostgreSQL cannot store, overlong strings and wild numbers are French 400s", () => {
  it("row 3: NUL in a query string is a French 400", async () => {
    const res = await t.client().request("/api/shops?q=%00");
    await expectFrench400(res, "q");
  });

  it("row 3: NUL in a path parameter is a French 400 naming the parameter", async () => {
    const res = await t.client().request("/api/shops/ab%00cd");
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("Le champ");
  });

  it("row 3: NUL and a lone surrogate in a JSON body are French 400s naming the field", async () => {
    const shopper = await t.createUser();
    const c = t.client();
    await c.signIn(shopper.email, shopper.password);
    const profile = { lastName: "Martin", consents: { email: false, sms: false, push: false } };
    await expectFrench400(
      await c.request("/api/accounts/profile", { method: "PUT", json: { ...profile, firstName: "A\u0000B" } }),
      "firstName",
    );
    // JSON.stringify writes a lone surrogate as the escape \ud800, which JSON columns refuse.
    await expectFrench400(
      await c.request("/api/accounts/profile", { method: "PUT", json: { ...profile, firstName: "A\ud800" } }),
      "firstName",
    );
    await expectFrench400(
      await c.request("/api/accounts/profile", {
        method: "PUT",
        json: { ...profile, firstName: "Ana", consents: { email: "\udc00" } },
      }),
      "consents.email",
    );
    const [row] = await t.deps.db.select().from(profiles).where(eq(profiles.id, shopper.id));
    expect(row?.firstName).toBe("Camille");
  });

  it("row 3: a lone surrogate in values stored as JSON (legal identity, closure reasons) is a French 400", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const legal = await owner.client.request(`/api/backoffice/shops/${shop.id}/legal`, {
      method: "PUT",
      json: { legalName: "Boulangerie \ud800", legalForm: "SARL" },
    });
    await expectFrench400(legal, "legalName");
    const hours = await owner.client.request(`/api/backoffice/shops/${shop.id}/hours`, {
      method: "PUT",
      json: { weekly: [], closures: [{ startDate: "2026-12-24", endDate: "2026-12-26", reason: "Fermé \udc00" }] },
    });
    await expectFrench400(hours, "closures.0.reason");
  });

  it("row 3: NUL in better-auth's endpoints is a French 400 too", async () => {
    const res = await t
      .client()
      .request("/api/auth/sign-in/email", { json: { email: "a\u0000@b.fr", password: "un-mot-de-passe" } });
    await expectFrench400(res, "email");
  });

  it("row 3: a 3 kB e-mail on the five throttled auth endpoints is a 400 (never a throttle key)", async () => {
    const email = `${"a".repeat(3000)}@test.fidele.local`;
    const calls: [string, Record<string, unknown>][] = [
      ["/api/auth/sign-in/email", { email, password: "un-mot-de-passe" }],
      ["/api/auth/email-otp/send-verification-otp", { email, type: "sign-in" }],
      ["/api/auth/sign-in/email-otp", { email, otp: "123456" }],
      ["/api/auth/request-password-reset", { email, redirectTo: "/reset-password" }],
      ["/api/auth/send-verification-email", { email }],
      ["/api/accounts/sign-up", { email, password: "un-mot-de-passe" }],
    ];
    for (const [path, json] of calls) {
      const res = await t.client().request(path, { json });
      await expectFrench400(res, "email");
    }
  });

  it("row 3: update-user with name null is a 400, not a 500", async () => {
    const shopper = await t.createUser();
    const c = t.client();
    await c.signIn(shopper.email, shopper.password);
    await expectFrench400(await c.request("/api/auth/update-user", { json: { name: null } }), "name");
    const [row] = await t.deps.db.select({ name: userTable.name }).from(userTable).where(eq(userTable.id, shopper.id));
    expect(row?.name).toBe("Camille Martin");
  });

  it("row 3: a number beyond ±2^31 and a string over the global cap are French 400s", async () => {
    const res = await t.client().request("/api/cards/scan", { json: { code: "ABC", points: 2 ** 40 } });
    await expectFrench400(res, "points");
    const long = await t.client().request("/api/cards/scan", { json: { code: "x".repeat(5000) } });
    await expectFrench400(long, "code");
    const deep = await t.client().request("/api/cards/scan", { body: `${"[".repeat(5000)}${"]".repeat(5000)}` });
    expect(deep.status).toBe(400);
  });

  it('names of Object.prototype are never table keys: /api/docs/constructor is a 404, a long "constructor" field a 400', async () => {
    // Found by the fuzz suite: a lookup table indexed by a path segment returned Object's constructor.
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      expect((await t.client().request(`/api/docs/${name}`)).status).toBe(404);
    }
    const res = await t.client().request("/api/cards/scan", { json: { constructor: "x".repeat(5000) } });
    await expectFrench400(res, "constructor");
  });
});

describe("row 4: simultaneous sign-ups with one new e-mail", () => {
  it("row 4: three at once make one account; every answer is the known-address answer, never a 500", async () => {
    const email = unknownEmail();
    const answers = await Promise.all(
      [0, 1, 2].map(async () => {
        const res = await t.client().request("/api/accounts/sign-up", { json: { email, password: "un-mot-de-passe" } });
        return { status: res.status, body: await res.json() };
      }),
    );
    for (const a of answers) expect(a).toEqual({ status: 200, body: { status: "check-email" } });
    const rows = await t.deps.db.select({ id: userTable.id }).from(userTable).where(eq(userTable.email, email));
    expect(rows).toHaveLength(1);
  });
});

describe("row 6: timing does not tell a known address", () => {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  };
  async function timed(path: string, json: unknown): Promise<number> {
    const started = performance.now();
    const res = await t.client().request(path, { json });
    await res.arrayBuffer();
    expect(res.status).toBeLessThan(500);
    return performance.now() - started;
  }
  /** Medians of N calls each, interleaved (a loaded machine slows both alike). */
  async function compare(known: () => Promise<number>, unknown: () => Promise<number>, n = 8) {
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < n; i++) {
      a.push(await known());
      b.push(await unknown());
    }
    return { known: median(a), unknown: median(b), ratio: median(a) / median(b) };
  }

  it("row 6: sign-up hashes a password for a known address too, and takes the same time (medians within 2×)", async () => {
    const ctx = await t.deps.auth.$context;
    const known = await Promise.all(Array.from({ length: 8 }, () => t.createUser()));
    const hash = vi.spyOn(ctx.password, "hash");
    let i = 0;
    const result = await compare(
      () => timed("/api/accounts/sign-up", { email: known[i++]?.email, password: "un-mot-de-passe" }),
      () => timed("/api/accounts/sign-up", { email: unknownEmail(), password: "un-mot-de-passe" }),
    );
    // Every call hashed once: the known path does the same work.
    expect(hash).toHaveBeenCalledTimes(16);
    hash.mockRestore();
    console.info(`row 6 sign-up: known ${result.known.toFixed(1)} ms, unknown ${result.unknown.toFixed(1)} ms`);
    expect(result.ratio).toBeGreaterThan(0.5);
    expect(result.ratio).toBeLessThan(2);
  });

  it("row 6: sign-in with a wrong password and password reset take the same time for known and unknown addresses", async () => {
    // 8 sign-ins each way, then 16 resets each way (cheap, and many, so that a busy neighbour's burst moves neither
    // median): each known address is used once.
    const known = await Promise.all(Array.from({ length: 24 }, () => t.createUser()));
    let i = 0;
    const signIn = await compare(
      () => timed("/api/auth/sign-in/email", { email: known[i++]?.email, password: "pas-le-bon-mdp" }),
      () => timed("/api/auth/sign-in/email", { email: unknownEmail(), password: "pas-le-bon-mdp" }),
    );
    const reset = await compare(
      () => timed("/api/auth/request-password-reset", { email: known[i++]?.email, redirectTo: "/reset-password" }),
      () => timed("/api/auth/request-password-reset", { email: unknownEmail(), redirectTo: "/reset-password" }),
      16,
    );
    console.info(
      `row 6 sign-in: known ${signIn.known.toFixed(1)} ms, unknown ${signIn.unknown.toFixed(1)} ms; reset: known ${reset.known.toFixed(1)} ms, unknown ${reset.unknown.toFixed(1)} ms`,
    );
    expect(signIn.ratio).toBeGreaterThan(0.5);
    expect(signIn.ratio).toBeLessThan(2);
    // A reset does no hashing: a few milliseconds either way; the mail is sent after the answer.
    expect(Math.abs(reset.known - reset.unknown)).toBeLessThan(Math.max(reset.unknown, 30));
    expect(t.lastMail(known[8]?.email ?? "", "reset").kind).toBe("reset");
  });
});

describe("row 7: cross-site writes are refused on every state-changing route", () => {
  const profile = { firstName: "Pirate", lastName: "Martin", consents: { email: true, sms: true, push: true } };

  it("row 7: a cross-site text/plain POST with a valid cookie is refused (403, French)", async () => {
    const shopper = await t.createUser();
    const c = t.client();
    await c.signIn(shopper.email, shopper.password);
    const res = await c.request("/api/accounts/profile", {
      method: "PUT",
      body: JSON.stringify(profile),
      headers: { origin: "https://evil.example", "content-type": "text/plain" },
    });
    expect(res.status).toBe(403);
    expect((await res.json()).message).toBe("Cette demande ne vient pas de Fidèle : elle a été refusée.");
    const heartbeat = await c.request("/api/accounts/heartbeat", {
      method: "POST",
      headers: { origin: "https://evil.example" },
    });
    expect(heartbeat.status).toBe(403);
    const [row] = await t.deps.db.select().from(profiles).where(eq(profiles.id, shopper.id));
    expect(row?.firstName).toBe("Camille");
  });

  it("row 7: Sec-Fetch-Site cross-site, or no Origin at all with a cookie, is refused", async () => {
    const shopper = await t.createUser();
    const c = t.client();
    await c.signIn(shopper.email, shopper.password);
    const cookie = [...c.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const bySite = await t.app.request(`${origin}/api/accounts/heartbeat`, {
      method: "POST",
      headers: { cookie, "sec-fetch-site": "cross-site" },
    });
    expect(bySite.status).toBe(403);
    const noOrigin = await t.app.request(`${origin}/api/accounts/heartbeat`, { method: "POST", headers: { cookie } });
    expect(noOrigin.status).toBe(403);
    // The same request from this site passes.
    expect((await c.request("/api/accounts/heartbeat", { method: "POST" })).status).toBe(204);
  });

  it("row 7: a same-site body that is not JSON is a French 415", async () => {
    const shopper = await t.createUser();
    const c = t.client();
    await c.signIn(shopper.email, shopper.password);
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const res = await c.request("/api/accounts/profile", {
        method: "PUT",
        body: JSON.stringify(profile),
        headers: { "content-type": type },
      });
      expect(res.status).toBe(415);
      expect((await res.json()).message).toContain("JSON");
    }
  });
});

/** A raw HTTP/1.1 exchange on the real server. */
function rawRequest(
  options: http.RequestOptions & { body?: Buffer },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; socketPort: number | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, ...options }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        body += d;
      });
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          socketPort: (req.socket?.address() as AddressInfo | undefined)?.port,
        }),
      );
    });
    req.on("error", reject);
    req.setTimeout(SOON, () => req.destroy(new Error(`no answer within ${SOON} ms`)));
    req.end(options.body);
  });
}

describe("row 8: one body limit, answered before the body is read", () => {
  it("row 8: an anonymous 30 MB JSON to /api/cards/scan is a French 413 after at most the first chunks", async () => {
    const declared = 30 * 1024 * 1024;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      let answered = false;
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/api/cards/scan",
          headers: { origin, "content-type": "application/json", "content-length": String(declared) },
        },
        (res) => {
          answered = true;
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => {
            body += d;
          });
          res.on("end", () => {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, body });
          });
        },
      );
      req.on("error", (e) => {
        if (!answered) reject(e);
      });
      req.setTimeout(SOON, () => req.destroy(new Error(`no answer within ${SOON} ms with the body unsent`)));
      // The first 64 kB, then nothing more: the answer must come without the rest of the 30 MB (counted, not timed:
      // a server that waited for the body would never answer).
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      req.write('{"code":"');
      req.write(chunk);
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      code: "PAYLOAD_TOO_LARGE",
      message: "La requête est trop volumineuse : 64 Ko au plus.",
    });
  });

  it("row 8: a chunked body without a length is cut off at the limit", async () => {
    const res = await t.app.request(`${origin}/api/cards/scan`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({
        pull(controller) {
          controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it("row 8: the image routes keep their own, larger limit", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const logo = `data:image/png;base64,${"A".repeat(300_000)}`;
    const page = await owner.client.request(`/api/backoffice/shops/${shop.id}/page`, { method: "PUT", json: { logo } });
    // Past the global 64 kB limit, judged by the route itself (a 400 about the page, not a 413).
    expect(page.status).not.toBe(413);
    expect(page.status).toBeLessThan(500);
    const scan = await owner.client.request("/api/cards/scan", { json: { logo } });
    expect(scan.status).toBe(413);
    // Past the route's own limit: its own French 413, the body cut off before it is read for validation.
    const huge = await owner.client.request(`/api/backoffice/shops/${shop.id}/page`, {
      method: "PUT",
      json: { logo: `data:image/png;base64,${"A".repeat(1_600_000)}` },
    });
    expect(huge.status).toBe(413);
    expect((await huge.json()).message).toBe(
      "Les images sont trop lourdes : 200 Ko pour le logo, 800 Ko pour la couverture.",
    );
    const photo = await owner.client.request(`/api/backoffice/shops/${shop.id}/rewards`, {
      json: { title: "Café", cost: 10, photo: `data:image/png;base64,${"A".repeat(800_000)}` },
    });
    expect(photo.status).toBe(413);
    expect((await photo.json()).message).toBe("La photo est trop lourde : 400 Ko au plus.");
  });
});

describe("row 9: the connection stays usable after a 413", () => {
  it("row 9: a 413 then a normal request through one keep-alive agent both get their answer", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const tooBig = await rawRequest({
        agent,
        method: "POST",
        path: "/api/cards/scan",
        headers: { origin, "content-type": "application/json" },
        body: Buffer.from(JSON.stringify({ code: "x".repeat(2 * 1024 * 1024) })),
      });
      expect(tooBig.status).toBe(413);
      // The server says what it does: this socket closes, the agent opens another.
      expect(tooBig.headers.connection).toBe("close");
      const next = await rawRequest({ agent, method: "GET", path: "/api/health" });
      expect(next.status).toBe(200);
      const again = await rawRequest({ agent, method: "GET", path: "/api/health" });
      expect(again.status).toBe(200);
      expect(again.headers.connection).toBe("keep-alive");
    } finally {
      agent.destroy();
    }
  });
});

/** Bytes on one keep-alive socket: what was sent back until the server closed it, and any socket error. */
function rawKeepAlive(
  head: string,
  body: Buffer,
): Promise<{ answer: string; error: string | null; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    let error: string | null = null;
    let closedByServer = false;
    socket.on("data", (d) => {
      answer += d.toString("utf8");
    });
    socket.on("end", () => {
      closedByServer = true;
    });
    socket.on("error", (e) => {
      error = String(e);
    });
    socket.on("close", () => resolve({ answer, error, closedByServer }));
    socket.setTimeout(SOON, () => socket.destroy(new Error(`no answer within ${SOON} ms`)));
    socket.write(head);
    socket.write(body);
  });
}

describe("issue 22 row 16: a keep-alive client reads the 413", () => {
  it("issue 22 row 16: a raw keep-alive client gets the whole French 413 with Connection: close, then the server closes", async () => {
    const { shop } = await shopWithOwner(t);
    const big = Buffer.alloc(2_000_000, 0x20);
    const chunked = Buffer.from(
      `${Array.from({ length: 8 }, () => `4e20\r\n${" ".repeat(20_000)}\r\n`).join("")}0\r\n\r\n`,
    );
    const cases = [
      { path: "/api/cards/scan", length: `Content-Length: ${big.length}`, body: big, message: "64 Ko" },
      { path: "/api/cards/scan", length: "Transfer-Encoding: chunked", body: chunked, message: "64 Ko" },
      {
        path: `/api/backoffice/shops/${shop.id}/rewards`,
        length: `Content-Length: ${big.length}`,
        body: big,
        message: "400 Ko",
      },
    ];
    for (const { path, length, body, message } of cases) {
      const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${origin}\r\nConnection: keep-alive\r\nContent-Type: application/json\r\n${length}\r\n\r\n`;
      const { answer, closedByServer } = await rawKeepAlive(head, body);
      const [headers = "", payload = ""] = answer.split("\r\n\r\n");
      expect(headers).toMatch(/^HTTP\/1\.1 413 /);
      // Without this header a keep-alive client sends its next request into a socket about to close.
      expect(headers).toMatch(/^connection: close$/im);
      expect(headers).not.toMatch(/^keep-alive:/im);
      const declared = Number(/^content-length: (\d+)$/im.exec(headers)?.[1]);
      expect(Buffer.byteLength(payload)).toBe(declared);
      expect(JSON.parse(payload)).toMatchObject({
        code: "PAYLOAD_TOO_LARGE",
        message: expect.stringContaining(message),
      });
      expect(closedByServer).toBe(true);
    }
  });
});
