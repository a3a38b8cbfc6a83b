import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SESSION_MAX_AGE_S } from "../../src/server/auth.ts";
import { session as sessionTable, user as userTable } from "../../src/server/db/schema/index.ts";
import { SESSION_CACHE_TTL_MS, sessionCacheOf } from "../../src/server/lib/session-cache.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { signedIn } from "./shops-helpers.ts";

/**
 * The API's own session lookup (src/server/lib/sessions.ts, ADR 0014): it must answer what better-auth
 * answers, and a revoked or banned session must stop working — at once when the revocation happens in this
 * process, within SESSION_CACHE_TTL_MS when another process writes the database.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  sessionCacheOf(t.deps.db).now = () => Date.now();
});

const heartbeat = (client: ReturnType<TestApp["client"]>, headers?: HeadersInit) =>
  client.request("/api/accounts/heartbeat", { method: "POST", ...(headers ? { headers } : {}) }).then((r) => r.status);

/** Moves the session cache's clock past its TTL, as if SESSION_CACHE_TTL_MS had gone by. */
function pastTtl() {
  sessionCacheOf(t.deps.db).now = () => Date.now() + SESSION_CACHE_TTL_MS + 1;
}

const tokenOf = (client: ReturnType<TestApp["client"]>) => decodeURIComponent(client.jar.get("fidele.session_token") ?? "").split(".")[0]!;

describe("session fast path", () => {
  it("gives the routes the same user and session as better-auth's getSession", async () => {
    const { user, client } = await signedIn(t, { role: "admin" });
    const cookie = `fidele.session_token=${client.jar.get("fidele.session_token")}`;
    const expected = await t.deps.auth.api.getSession({ headers: new Headers({ cookie }) });
    expect(expected?.user.id).toBe(user.id);
    const me = await client.request("/api/accounts/me");
    expect((await me.json()).me.user).toMatchObject({ id: user.id, isAdmin: true });
    // The admin-only outbox answers: the role came through.
    expect((await client.request("/api/admin/outbox")).status).toBe(200);

    const { resolveSession } = await import("../../src/server/lib/sessions.ts");
    const fast = await resolveSession(t.deps, new Headers({ cookie }));
    expect(fast.signedIn).toEqual(expected);
    expect(fast.setCookies).toEqual([]);
  });

  it("refuses a forged, tampered or foreign-secret cookie", async () => {
    const { client } = await signedIn(t);
    const token = tokenOf(client);
    // Cached first: a hit must still check that the cookie is the one verified.
    expect(await heartbeat(client)).toBe(204);
    const sign = (value: string, secret: string) => createHmac("sha256", secret).update(value).digest("base64");
    const cookies = [
      "fidele.session_token=forged.value",
      `fidele.session_token=${encodeURIComponent(`${token}.${sign(token, "un-autre-secret-un-autre-secret-0123")}`)}`,
      `fidele.session_token=${encodeURIComponent(`${token}x.${sign(token, t.env.SECRET)}`)}`,
      `fidele.session_token=${encodeURIComponent(token)}`,
      `fidele.session_token=${encodeURIComponent(`unknown-token.${sign("unknown-token", t.env.SECRET)}`)}`,
    ];
    for (const cookie of cookies) expect(await heartbeat(t.client(), { cookie }), cookie).toBe(401);
    expect(await heartbeat(client)).toBe(204);
  });

  it("sign-out in this process ends a cached session at once", async () => {
    const user = await t.createUser();
    const c = t.client();
    await c.signIn(user.email, user.password);
    const cookie = [...c.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    expect(await heartbeat(c)).toBe(204);
    expect(await heartbeat(c)).toBe(204);
    expect(sessionCacheOf(t.deps.db).entries.has(tokenOf(c))).toBe(true);
    expect((await c.request("/api/auth/sign-out", { method: "POST", json: {} })).status).toBe(200);
    expect(await heartbeat(t.client(), { cookie })).toBe(401);
  });

  it("a revocation made by another process (no hook here) holds within the cache TTL", async () => {
    const { client } = await signedIn(t);
    expect(await heartbeat(client)).toBe(204);
    // Another server on the same database deletes the session: this process hears nothing.
    await t.deps.db.delete(sessionTable).where(eq(sessionTable.token, tokenOf(client)));
    expect(await heartbeat(client)).toBe(204);
    pastTtl();
    expect(await heartbeat(client)).toBe(401);
  });

  it("refuses a banned user: banned through better-auth at once, banned elsewhere within the TTL", async () => {
    const admin = await signedIn(t, { role: "admin" });
    const viaAdmin = await signedIn(t);
    expect(await heartbeat(viaAdmin.client)).toBe(204);
    const ban = await admin.client.request("/api/auth/admin/ban-user", { json: { userId: viaAdmin.user.id, banReason: "Fraude" } });
    expect(ban.status).toBe(200);
    expect(await heartbeat(viaAdmin.client)).toBe(401);

    // A ban written straight to the database keeps the session row: the flag alone must refuse it.
    const elsewhere = await signedIn(t);
    expect(await heartbeat(elsewhere.client)).toBe(204);
    await t.deps.db.update(userTable).set({ banned: true }).where(eq(userTable.id, elsewhere.user.id));
    pastTtl();
    expect(await heartbeat(elsewhere.client)).toBe(401);
    // Not cached: refused on the first request too.
    const fresh = await signedIn(t);
    await t.deps.db.update(userTable).set({ banned: true }).where(eq(userTable.id, fresh.user.id));
    expect(await heartbeat(fresh.client)).toBe(401);
    // A ban that has run out no longer refuses.
    await t.deps.db.update(userTable).set({ banExpires: new Date(Date.now() - 60_000) }).where(eq(userTable.id, fresh.user.id));
    expect(await heartbeat(fresh.client)).toBe(204);
  });

  it("a change of role through better-auth applies at once", async () => {
    const { user, client } = await signedIn(t, { role: "admin" });
    expect((await client.request("/api/admin/outbox")).status).toBe(200);
    const ctx = await t.deps.auth.$context;
    await ctx.internalAdapter.updateUser(user.id, { role: "user" });
    expect((await client.request("/api/admin/outbox")).status).toBe(403);
  });

  it("refreshes a session due for it (updateAge) and sends its cookie", async () => {
    const { client } = await signedIn(t);
    const token = tokenOf(client);
    // Last refreshed a day and a minute ago.
    const old = new Date(Date.now() + SESSION_MAX_AGE_S * 1000 - 24 * 3600 * 1000 - 60_000);
    await t.deps.db.update(sessionTable).set({ expiresAt: old }).where(eq(sessionTable.token, token));
    const res = await client.request("/api/accounts/heartbeat", { method: "POST" });
    expect(res.status).toBe(204);
    const [row] = await t.deps.db.select({ expiresAt: sessionTable.expiresAt }).from(sessionTable).where(eq(sessionTable.token, token));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + SESSION_MAX_AGE_S * 1000 - 60_000);
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith("fidele.session_token="));
    expect(setCookie).toContain(`Max-Age=${SESSION_MAX_AGE_S}`);
    expect(await heartbeat(client)).toBe(204);
  });

  it("refreshes a due session as better-auth's getSession does: the same row, the same cookie", async () => {
    const ours = await signedIn(t);
    const theirs = await signedIn(t);
    const old = new Date(Date.now() + SESSION_MAX_AGE_S * 1000 - 24 * 3600 * 1000 - 60_000);
    for (const c of [ours.client, theirs.client])
      await t.deps.db.update(sessionTable).set({ expiresAt: old }).where(eq(sessionTable.token, tokenOf(c)));
    const cookieOf = (c: ReturnType<TestApp["client"]>) => `fidele.session_token=${c.jar.get("fidele.session_token")}`;

    const { resolveSession } = await import("../../src/server/lib/sessions.ts");
    const getSession = vi.spyOn(t.deps.auth.api, "getSession");
    const fast = await resolveSession(t.deps, new Headers({ cookie: cookieOf(ours.client) }));
    // Refreshed here, not handed to better-auth.
    expect(getSession).not.toHaveBeenCalled();
    getSession.mockRestore();
    const reference = await t.deps.auth.api.getSession({
      headers: new Headers({ cookie: cookieOf(theirs.client) }),
      returnHeaders: true,
    });

    // The cookie: the same signed token, the same attributes as better-auth's.
    const [mine] = fast.setCookies;
    const [its] = reference.headers.getSetCookie();
    expect(mine!.split("; ")[0]).toBe(cookieOf(ours.client));
    expect(mine!.split("; ").slice(1)).toEqual(its!.split("; ").slice(1));
    // The answer: the same fields, the session's new end as written in the row.
    const answer = reference.response!;
    expect(Object.keys(fast.signedIn!.session).sort()).toEqual(Object.keys(answer.session).sort());
    expect(Object.keys(fast.signedIn!.user).sort()).toEqual(Object.keys(answer.user).sort());
    expect(fast.signedIn!.user.id).toBe(ours.user.id);
    const [row] = await t.deps.db
      .select({ expiresAt: sessionTable.expiresAt, updatedAt: sessionTable.updatedAt })
      .from(sessionTable)
      .where(eq(sessionTable.token, tokenOf(ours.client)));
    expect(new Date(fast.signedIn!.session.expiresAt).getTime()).toBe(row!.expiresAt.getTime());
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + SESSION_MAX_AGE_S * 1000 - 60_000);
    expect(Math.abs(row!.expiresAt.getTime() - new Date(answer.session.expiresAt).getTime())).toBeLessThan(60_000);
    // No longer due: the next request is the one-query path, no cookie.
    const next = await resolveSession(t.deps, new Headers({ cookie: cookieOf(ours.client) }));
    expect(next.signedIn?.user.id).toBe(ours.user.id);
    expect(next.setCookies).toEqual([]);
  });

  it("refuses an expired session and lets better-auth clean it up", async () => {
    const { client } = await signedIn(t);
    const token = tokenOf(client);
    await t.deps.db.update(sessionTable).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessionTable.token, token));
    expect(await heartbeat(client)).toBe(401);
    expect(await t.deps.db.select().from(sessionTable).where(eq(sessionTable.token, token))).toEqual([]);
  });
});
