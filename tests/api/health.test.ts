import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { createTestApp, type TestApp } from "../setup/api.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("GET /api/health", () => {
  it("answers 200 JSON with the kind of database in use", async () => {
    const res = await t.request("/api/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const expected = inject("testDatabaseUrl") ? "postgresql" : "pglite";
    expect(await res.json()).toEqual({ status: "ok", database: expected });
  });
});

describe("security headers", () => {
  it("sends CSP with frame-ancestors 'none', nosniff, a Referrer-Policy and no-store on API answers", async () => {
    const res = await t.request("/api/health");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    // No JavaScript eval; only WebAssembly compilation, for the in-app QR scanner.
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).toContain("'wasm-unsafe-eval'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("keeps no-store on signed-in answers and on errors", async () => {
    const user = await t.createUser();
    const browser = t.client();
    await browser.signIn(user.email, user.password);
    const me = await browser.request("/api/accounts/me");
    expect(me.status).toBe(200);
    expect(me.headers.get("cache-control")).toBe("no-store");
    const missing = await browser.request("/api/does-not-exist");
    expect(missing.headers.get("cache-control")).toBe("no-store");
  });

  it("sends no HSTS over plain http", async () => {
    const res = await t.request("/api/health");
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("session cookie", () => {
  it("is HttpOnly, SameSite=Lax, Path=/ and lasts 400 days (SPEC §9), not Secure over http", async () => {
    const user = await t.createUser();
    const res = await t
      .client()
      .request("/api/auth/sign-in/email", { json: { email: user.email, password: user.password } });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("fidele.session_token="));
    expect(cookie).toBeDefined();
    const attributes = cookie!.split(";").map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(
      expect.arrayContaining(["httponly", "samesite=lax", "path=/", `max-age=${400 * 24 * 60 * 60}`]),
    );
    expect(attributes).not.toContain("secure");
  });
});

describe("unknown API paths", () => {
  it.each(["/api/does-not-exist", "/api/accounts/nope", "/api/auth/nope", "/api"])(
    "%s is a 404 in JSON",
    async (path) => {
      const res = await t.request(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(await res.json()).toEqual({ code: "NOT_FOUND", message: "Introuvable." });
    },
  );

  it("a PUT on an auth path is a 404 in JSON too", async () => {
    const res = await t.request("/api/auth/sign-in/email", { method: "PUT", json: {} });
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe("NOT_FOUND");
  });
});
