import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUserByEmail } from "../../src/server/db/factories.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";

/**
 * No account enumeration (issue 2, security): sign-up, sign-in and reset answer
 * with the same status and body whether the address has an account or not.
 * Each call comes from its own client address so per-address limits stay out of it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const unknownEmail = () => `inconnu-${crypto.randomUUID().slice(0, 8)}@test.fidele.local`;

async function answer(res: Response) {
  return { status: res.status, body: await res.json() };
}

describe("no account enumeration", () => {
  it("sign-up answers alike; the known address is told by e-mail, the new one gets a confirmation link", async () => {
    const known = await t.createUser();
    const fresh = unknownEmail();
    const a = await answer(
      await t.client().request("/api/accounts/sign-up", { json: { email: known.email, password: "un-mot-de-passe" } }),
    );
    const b = await answer(
      await t.client().request("/api/accounts/sign-up", { json: { email: fresh, password: "un-mot-de-passe" } }),
    );
    expect(a).toEqual(b);
    expect(a).toEqual({ status: 200, body: { status: "check-email" } });

    expect(t.lastMail(known.email).kind).toBe("existing-account");
    expect(t.lastMail(fresh).kind).toBe("confirmation");
    // The known account keeps its password; the new one is created unverified.
    await t.client().signIn(known.email, known.password);
    const created = await findUserByEmail(t.deps.db, fresh);
    expect(created?.emailVerified).toBe(false);
  });

  it("sign-in with a wrong password answers alike for a known and an unknown address", async () => {
    const known = await t.createUser();
    const a = await answer(
      await t.client().request("/api/auth/sign-in/email", { json: { email: known.email, password: "pas-le-bon-mdp" } }),
    );
    const b = await answer(
      await t
        .client()
        .request("/api/auth/sign-in/email", { json: { email: unknownEmail(), password: "pas-le-bon-mdp" } }),
    );
    expect(a).toEqual(b);
    expect(a).toEqual({
      status: 401,
      body: { code: "INVALID_EMAIL_OR_PASSWORD", message: "Adresse e-mail ou mot de passe incorrect." },
    });
  });

  it("a reset request answers alike; only the known address gets a mail", async () => {
    const known = await t.createUser();
    const unknown = unknownEmail();
    const a = await answer(
      await t
        .client()
        .request("/api/auth/request-password-reset", { json: { email: known.email, redirectTo: "/reset-password" } }),
    );
    const b = await answer(
      await t
        .client()
        .request("/api/auth/request-password-reset", { json: { email: unknown, redirectTo: "/reset-password" } }),
    );
    expect(a).toEqual(b);
    expect(a.status).toBe(200);
    expect(t.lastMail(known.email, "reset").subject).toBe("Réinitialisez votre mot de passe");
    expect(t.mails.some((m) => m.to === unknown)).toBe(false);
  });

  it("better-auth's own sign-up endpoint is not reachable (it would tell who has an account)", async () => {
    const known = await t.createUser();
    const res = await t
      .client()
      .request("/api/auth/sign-up/email", { json: { email: known.email, password: "un-mot-de-passe", name: "" } });
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe("NOT_FOUND");
  });
});
