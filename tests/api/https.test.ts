import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../setup/api.ts";

/** Behind https (APP_URL https://…): HSTS and Secure cookies. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { APP_URL: "https://fidele.example" } });
});
afterAll(async () => {
  await t?.close();
});

describe("over https", () => {
  it("sends HSTS", async () => {
    const res = await t.request("/api/health");
    expect(res.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
  });

  it("marks the session cookie Secure (with the __Secure- prefix), HttpOnly, SameSite=Lax, Path=/, 400 days", async () => {
    const user = await t.createUser();
    const res = await t
      .client()
      .request("/api/auth/sign-in/email", { json: { email: user.email, password: user.password } });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__Secure-fidele.session_token="));
    expect(cookie).toBeDefined();
    const attributes = cookie!.split(";").map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(
      expect.arrayContaining(["secure", "httponly", "samesite=lax", "path=/", `max-age=${400 * 24 * 60 * 60}`]),
    );
  });
});
