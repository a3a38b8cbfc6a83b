import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../setup/api.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The token of the reset link in the last reset mail to `email`. */
function resetToken(email: string): string {
  const match = /\/api\/auth\/reset-password\/([^?\s]+)/.exec(t.lastMail(email, "reset").text);
  if (!match?.[1]) throw new Error("no reset link");
  return match[1];
}

describe("password reset", () => {
  it("revokes every session: a cookie from before the reset gets 401 after it", async () => {
    const user = await t.createUser();
    const phone = t.client();
    const laptop = t.client();
    await phone.signIn(user.email, user.password);
    await laptop.signIn(user.email, user.password);
    expect((await phone.request("/api/accounts/heartbeat", { method: "POST" })).status).toBe(204);
    expect((await laptop.request("/api/accounts/heartbeat", { method: "POST" })).status).toBe(204);

    const stranger = t.client();
    const asked = await stranger.request("/api/auth/request-password-reset", {
      json: { email: user.email, redirectTo: "/reset-password" },
    });
    expect(asked.status).toBe(200);
    const reset = await stranger.request("/api/auth/reset-password", {
      json: { token: resetToken(user.email), newPassword: "un-nouveau-mot-de-passe" },
    });
    expect(reset.status).toBe(200);

    for (const device of [phone, laptop]) {
      const res = await device.request("/api/accounts/heartbeat", { method: "POST" });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        code: "UNAUTHENTICATED",
        message: "Connectez-vous pour continuer.",
      });
      expect(await (await device.request("/api/accounts/me")).json()).toEqual({ me: null });
    }

    // The old password no longer works, the new one does.
    const old = await t
      .client()
      .request("/api/auth/sign-in/email", { json: { email: user.email, password: user.password } });
    expect(old.status).toBe(401);
    const again = t.client();
    await again.signIn(user.email, "un-nouveau-mot-de-passe");
    expect((await again.request("/api/accounts/heartbeat", { method: "POST" })).status).toBe(204);
  });

  it("a reset link works once", async () => {
    const user = await t.createUser();
    const c = t.client();
    await c.request("/api/auth/request-password-reset", { json: { email: user.email, redirectTo: "/reset-password" } });
    const token = resetToken(user.email);
    expect(
      (await c.request("/api/auth/reset-password", { json: { token, newPassword: "premier-changement" } })).status,
    ).toBe(200);
    const second = await c.request("/api/auth/reset-password", { json: { token, newPassword: "second-changement" } });
    expect(second.status).toBe(400);
    expect(await second.json()).toEqual({
      code: "INVALID_TOKEN",
      message: "Ce lien n'est plus valable. Demandez-en un nouveau.",
    });
  });
});

describe("signed-in endpoints", () => {
  it("answer 401 without a session and after sign-out", async () => {
    const user = await t.createUser();
    const c = t.client();
    expect((await c.request("/api/accounts/heartbeat", { method: "POST" })).status).toBe(401);
    await c.signIn(user.email, user.password);
    const cookieBefore = [...c.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    expect((await c.request("/api/accounts/heartbeat", { method: "POST" })).status).toBe(204);
    expect((await c.request("/api/auth/sign-out", { method: "POST", json: {} })).status).toBe(200);
    expect((await c.request("/api/accounts/heartbeat", { method: "POST" })).status).toBe(401);
    // The cookie value itself is dead on the server, not only dropped by the browser.
    const replay = await t
      .client()
      .request("/api/accounts/heartbeat", { method: "POST", headers: { cookie: cookieBefore } });
    expect(replay.status).toBe(401);
  });

  it("a forged session cookie gets 401", async () => {
    const res = await t.client().request("/api/accounts/heartbeat", {
      method: "POST",
      headers: { cookie: "fidele.session_token=forged.value" },
    });
    expect(res.status).toBe(401);
  });
});
