import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUserByEmail } from "../../src/server/db/factories.ts";
import { user as userTable } from "../../src/server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";

/** Role and other privileged fields cannot be set by the user (issue 2, security). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const row = async (id: string) => (await t.deps.db.select().from(userTable).where(eq(userTable.id, id)))[0];

describe("privileged fields", () => {
  it.each([
    { role: "admin" },
    { emailVerified: false },
    { banned: true },
    { twoFactorEnabled: true },
    { email: "autre@test.fidele.local" },
    { name: "Camille Martin", role: "admin" },
  ])("update-user with %j is refused and changes nothing", async (body) => {
    const created = await t.createUser();
    const c = t.client();
    await c.signIn(created.email, created.password);
    const before = await row(created.id);
    const res = await c.request("/api/auth/update-user", { json: body });
    expect(res.status).toBe(400);
    const after = await row(created.id);
    expect(after).toMatchObject({
      role: "user",
      emailVerified: true,
      banned: before?.banned ?? false,
      twoFactorEnabled: before?.twoFactorEnabled ?? false,
      email: created.email,
    });
    const { me } = await (await c.request("/api/accounts/me")).json();
    expect(me.user.isAdmin).toBe(false);
    expect((await c.request("/api/admin/outbox")).status).toBe(403);
  });

  it("update-user with only the name works (so the refusals above are about the fields)", async () => {
    const created = await t.createUser();
    const c = t.client();
    await c.signIn(created.email, created.password);
    expect((await c.request("/api/auth/update-user", { json: { name: "Camille M." } })).status).toBe(200);
    expect((await row(created.id))?.name).toBe("Camille M.");
  });

  it("sign-up ignores role and emailVerified", async () => {
    const email = `pirate-${crypto.randomUUID().slice(0, 8)}@test.fidele.local`;
    const res = await t.client().request("/api/accounts/sign-up", {
      json: { email, password: "un-mot-de-passe", role: "admin", emailVerified: true, banned: false },
    });
    expect(res.status).toBe(200);
    const created = await findUserByEmail(t.deps.db, email);
    expect(created).toMatchObject({ role: "user", emailVerified: false });
  });

  it("admin endpoints of better-auth are refused to a user", async () => {
    const created = await t.createUser();
    const c = t.client();
    await c.signIn(created.email, created.password);
    const res = await c.request("/api/auth/admin/set-role", { json: { userId: created.id, role: "admin" } });
    expect([401, 403]).toContain(res.status);
    expect((await row(created.id))?.role).toBe("user");
  });

  it("a signed-in request from another site is refused (CSRF)", async () => {
    const created = await t.createUser();
    const c = t.client();
    await c.signIn(created.email, created.password);
    const res = await c.request("/api/auth/update-user", {
      json: { name: "Pirate" },
      headers: { origin: "https://evil.example" },
    });
    // Refused at the edge, before better-auth (lib/same-site.ts), like every other state-changing route.
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      code: "FORBIDDEN",
      message: "Cette demande ne vient pas de Fidèle : elle a été refusée.",
    });
    expect((await row(created.id))?.name).toBe("Camille Martin");
  });
});

describe("the outbox (mail kept without SMTP)", () => {
  it("is readable by the platform admin only", async () => {
    const admin = await t.createUser({ role: "admin" });
    const shopper = await t.createUser();
    const asker = t.client();
    await asker.request("/api/auth/request-password-reset", {
      json: { email: shopper.email, redirectTo: "/reset-password" },
    });

    const anonymous = await t.client().request("/api/admin/outbox");
    expect(anonymous.status).toBe(401);
    const asShopper = t.client();
    await asShopper.signIn(shopper.email, shopper.password);
    expect((await asShopper.request("/api/admin/outbox")).status).toBe(403);

    const asAdmin = t.client();
    await asAdmin.signIn(admin.email, admin.password);
    const res = await asAdmin.request("/api/admin/outbox");
    expect(res.status).toBe(200);
    const { messages } = await res.json();
    const mail = messages.find((m: { to: string; kind: string }) => m.to === shopper.email && m.kind === "reset");
    expect(mail).toMatchObject({ subject: "Réinitialisez votre mot de passe", status: "kept" });
    expect(mail.text).toContain("/api/auth/reset-password/");
  });
});
