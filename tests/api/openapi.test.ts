import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenApiDocument, toOpenApiPath } from "../../src/server/lib/openapi.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";

/**
 * /api/openapi.json: a valid OpenAPI 3.1 document made from the app itself, listing every route of
 * the app (compared with Hono's own route list, so a route added later without appearing fails
 * here), with the zod schemas the routes validate; /api/docs renders it without any CDN.
 */
let t: TestApp;
let doc: OpenApiDocument;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.request("/api/openapi.json");
  expect(res.status).toBe(200);
  doc = (await res.json()) as OpenApiDocument;
  if (process.env.OPENAPI_DUMP)
    (await import("node:fs")).writeFileSync(process.env.OPENAPI_DUMP, JSON.stringify(doc, null, 2));
});
afterAll(async () => {
  await t?.close();
});

const OPERATION_METHODS = ["GET", "PUT", "POST", "DELETE", "PATCH"];

describe("/api/openapi.json", () => {
  it("validates as OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it("lists every route of the app (Hono's route list), each method of each path", () => {
    const expected = new Set<string>();
    for (const route of t.app.routes) {
      if (!OPERATION_METHODS.includes(route.method)) continue; // middleware is registered as ALL
      if (!route.path.startsWith("/api/") || route.path.includes("*")) continue; // the SPA; /api/auth/* below
      expected.add(`${route.method.toLowerCase()} ${toOpenApiPath(route.path)}`);
    }
    const listed = new Set(
      Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((method) => `${method} ${p}`)),
    );
    const missing = [...expected].filter((op) => !listed.has(op));
    expect(missing).toEqual([]);
    // Sanity: the app has dozens of routes, and the document has the API's main families.
    expect(expected.size).toBeGreaterThan(40);
    for (const p of ["/api/health", "/api/shops/{slug}", "/api/openapi.json", "/api/docs"])
      expect(doc.paths[p]).toBeDefined();
  });

  it("lists better-auth's endpoints under /api/auth, except those the app blocks", async () => {
    expect(doc.paths["/api/auth/sign-in/email"]?.post).toBeDefined();
    expect(doc.paths["/api/auth/get-session"]?.get).toBeDefined();
    expect(doc.paths["/api/auth/email-otp/send-verification-otp"]?.post).toBeDefined();
    // Sign-up goes through /api/accounts/sign-up (auth-proxy.ts blocks better-auth's own).
    expect(doc.paths["/api/auth/sign-up/email"]).toBeUndefined();
    const blocked = await t.request("/api/auth/sign-up/email", { json: {} });
    expect(blocked.status).toBe(404);
  });

  it("describes what a route validates with the route's own zod schema", () => {
    const signUp = doc.paths["/api/accounts/sign-up"]?.post as {
      requestBody?: {
        content?: Record<string, { schema?: { properties?: Record<string, unknown>; required?: string[] } }>;
      };
      responses?: Record<string, unknown>;
    };
    const schema = signUp?.requestBody?.content?.["application/json"]?.schema;
    expect(Object.keys(schema?.properties ?? {})).toEqual(expect.arrayContaining(["email", "password"]));
    expect(signUp.responses?.["400"]).toBeDefined();
  });
});

describe("/api/docs", () => {
  it("answers an HTML page that loads the document and Swagger UI from this server only", async () => {
    const res = await t.request("/api/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    const styles = [...html.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
    expect(styles.length).toBeGreaterThan(0);
    expect(scripts.length).toBeGreaterThan(0);
    // Nothing from another host (the page works offline), no inline script (the CSP forbids it).
    for (const url of [...scripts, ...styles]) expect(url).toMatch(/^\/api\/docs\//);
    expect(html).not.toMatch(/<script>(?!<\/script>)|<script\s*>[^<]/);
    for (const url of [...scripts, ...styles]) {
      const asset = await t.request(url);
      expect(asset.status, url).toBe(200);
      expect((await asset.text()).length, url).toBeGreaterThan(10);
    }
    const init = await (await t.request("/api/docs/init.js")).text();
    expect(init).toContain("/api/openapi.json");
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect((await t.request("/api/docs/nope.js")).status).toBe(404);
  });
});
