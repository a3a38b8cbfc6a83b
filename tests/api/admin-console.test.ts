import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff } from "../../src/server/db/factories.ts";
import { cards, session as sessionTable } from "../../src/server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { type Client, newKey, scan, shopWithOwner, signedIn } from "./shops-helpers.ts";
import { sleep } from "../setup/timing.ts";

/**
 * The back-office console (issue 16, items 1–4): the audit log, who is online, sessions. Each API as anonymous,
 * shopper, staff of another shop, owner and platform admin.
 */
let t: TestApp;
let shopA: { id: string; name: string };
let shopB: { id: string };
let owner: Awaited<ReturnType<typeof signedIn>>;
let staffA: Awaited<ReturnType<typeof signedIn>>;
let staffB: Awaited<ReturnType<typeof signedIn>>;
let customer: Awaited<ReturnType<typeof signedIn>>;
let shopper: Awaited<ReturnType<typeof signedIn>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let anonymous: Client;
let cardId = "";

beforeAll(async () => {
  t = await createTestApp();
  const a = await shopWithOwner(t, { name: "Boulangerie Audit" });
  const b = await shopWithOwner(t, { name: "Autre boutique" });
  shopA = { id: a.shop.id, name: "Boulangerie Audit" };
  shopB = b.shop;
  owner = a.owner;
  staffA = await signedIn(t);
  await addStaff(t.deps, shopA.id, staffA.user.id, "member");
  staffB = await signedIn(t);
  await addStaff(t.deps, shopB.id, staffB.user.id, "member");
  customer = await signedIn(t);
  await scan(customer.client, t.deps.db, shopA.id);
  const [card] = await t.deps.db.select().from(cards).where(eq(cards.userId, customer.user.id));
  cardId = card!.id;
  shopper = await signedIn(t);
  admin = await signedIn(t, { role: "admin" });
  anonymous = t.client();
});

afterAll(async () => {
  await t?.close();
});

const statusOf = async (client: Client, path: string, init: Parameters<Client["request"]>[1] = {}) =>
  (await client.request(path, init)).status;

describe("/api/admin/logs (platform admin only)", () => {
  it("an owner's adjustment with its reason appears in the log, with who, shop and when", async () => {
    const res = await owner.client.request(`/api/backoffice/shops/${shopA.id}/adjust`, {
      json: { cardId, delta: 7, reason: "Geste commercial après erreur", idempotencyKey: newKey() },
    });
    expect(res.status).toBe(201);
    const log = await (await admin.client.request("/api/admin/logs?action=points.adjust")).json();
    const entry = log.entries.find((e: { target: string }) => e.target === cardId);
    expect(entry).toMatchObject({
      action: "points.adjust",
      actionLabel: "Correction de solde",
      actor: { id: owner.user.id, email: owner.user.email },
      shop: { id: shopA.id, name: shopA.name },
      details: { delta: 7, reason: "Geste commercial après erreur" },
    });
    // Filters: by shop, by who, by date; and the CSV holds the same row.
    const byShop = await (await admin.client.request(`/api/admin/logs?shopId=${shopB.id}&action=points.adjust`)).json();
    expect(byShop.total).toBe(0);
    const byWho = await (
      await admin.client.request(`/api/admin/logs?who=${encodeURIComponent(owner.user.email)}`)
    ).json();
    expect(byWho.entries.map((e: { action: string }) => e.action)).toContain("points.adjust");
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await (await admin.client.request(`/api/admin/logs?from=${tomorrow}`)).json()).total).toBe(0);
    const csv = await (await admin.client.request("/api/admin/logs.csv?action=points.adjust")).text();
    expect(csv).toContain("Geste commercial après erreur");
    expect(csv).toContain(owner.user.email);
    expect((await admin.client.request("/api/admin/logs?action=nope")).status).toBe(400);
  });

  it("suspension, exports and admin sign-ins are logged too", async () => {
    expect(
      await statusOf(admin.client, `/api/backoffice/platform/shops/${shopB.id}/suspend`, {
        json: { reason: "Fraude signalée" },
      }),
    ).toBe(200);
    expect(
      await statusOf(admin.client, `/api/backoffice/platform/shops/${shopB.id}/reactivate`, { method: "POST" }),
    ).toBe(200);
    expect(await statusOf(owner.client, `/api/backoffice/shops/${shopA.id}/customers.csv`)).toBe(200);
    const log = await (await admin.client.request("/api/admin/logs?limit=200")).json();
    const actions = log.entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(["shop.suspend", "shop.reactivate", "export.customers", "admin.signin"]),
    );
    const suspend = log.entries.find((e: { action: string }) => e.action === "shop.suspend");
    expect(suspend.details).toEqual({ reason: "Fraude signalée" });
    expect(suspend.actor.id).toBe(admin.user.id);
  });

  it("nobody but the platform admin reads it", async () => {
    for (const path of ["/api/admin/logs", "/api/admin/logs.csv"]) {
      expect(await statusOf(anonymous, path)).toBe(401);
      for (const who of [shopper, staffB, staffA, owner]) expect(await statusOf(who.client, path)).toBe(403);
      expect(await statusOf(admin.client, path)).toBe(200);
    }
  });
});

describe("/api/admin/connected", () => {
  it("an owner sees their team and customers online, not another shop's; the admin sees everyone by shop", async () => {
    // Each request is a heartbeat.
    for (const who of [customer, staffA, staffB, shopper]) await who.client.request("/api/accounts/me");
    await sleep(100);
    const mine = await (await owner.client.request("/api/admin/connected")).json();
    const ids = mine.people.map((p: { userId: string }) => p.userId);
    expect(ids).toEqual(expect.arrayContaining([customer.user.id, staffA.user.id]));
    expect(ids).not.toContain(staffB.user.id);
    expect(ids).not.toContain(shopper.user.id);
    const all = await (await admin.client.request("/api/admin/connected")).json();
    const allIds = all.people.map((p: { userId: string }) => p.userId);
    expect(allIds).toEqual(expect.arrayContaining([customer.user.id, staffA.user.id, staffB.user.id, shopper.user.id]));
    expect(all.people.find((p: { userId: string }) => p.userId === staffB.user.id).shop.id).toBe(shopB.id);
  });

  it("is for owners and the admin only", async () => {
    expect(await statusOf(anonymous, "/api/admin/connected")).toBe(401);
    expect(await statusOf(shopper.client, "/api/admin/connected")).toBe(403);
    expect(await statusOf(staffB.client, "/api/admin/connected")).toBe(403);
  });
});

describe("/api/admin/sessions", () => {
  const sessionsOf = async (client: Client) =>
    (await (await client.request("/api/admin/sessions")).json()).sessions as {
      id: string;
      user: { id: string };
      isCurrent: boolean;
    }[];

  it("each person sees their own; an owner their team's; the admin anyone's", async () => {
    const own = await sessionsOf(shopper.client);
    expect(own.every((s) => s.user.id === shopper.user.id)).toBe(true);
    expect(own.some((s) => s.isCurrent)).toBe(true);
    const ownerView = (await sessionsOf(owner.client)).map((s) => s.user.id);
    expect(ownerView).toContain(staffA.user.id);
    expect(ownerView).not.toContain(staffB.user.id);
    expect(ownerView).not.toContain(customer.user.id);
    const adminView = (await sessionsOf(admin.client)).map((s) => s.user.id);
    expect(adminView).toEqual(expect.arrayContaining([staffB.user.id, shopper.user.id, customer.user.id]));
    expect(await statusOf(anonymous, "/api/admin/sessions")).toBe(401);
  });

  it("« Déconnecter » ends a visible session; anyone else's is a 404", async () => {
    const [staffBSession] = await t.deps.db.select().from(sessionTable).where(eq(sessionTable.userId, staffB.user.id));
    // Staff of another shop, the owner of shop A and a shopper cannot end staff B's session.
    for (const who of [staffA, owner, shopper]) {
      expect(await statusOf(who.client, `/api/admin/sessions/${staffBSession!.id}`, { method: "DELETE" })).toBe(404);
    }
    expect(await statusOf(anonymous, `/api/admin/sessions/${staffBSession!.id}`, { method: "DELETE" })).toBe(401);
    // The owner ends their staff member's session: the next request of that staff member is signed out.
    const [staffASession] = await t.deps.db.select().from(sessionTable).where(eq(sessionTable.userId, staffA.user.id));
    expect(await statusOf(owner.client, `/api/admin/sessions/${staffASession!.id}`, { method: "DELETE" })).toBe(200);
    expect(await statusOf(staffA.client, `/api/backoffice/shops/${shopA.id}/today`)).toBe(401);
    // The admin ends anyone's.
    expect(await statusOf(admin.client, `/api/admin/sessions/${staffBSession!.id}`, { method: "DELETE" })).toBe(200);
    expect(await statusOf(staffB.client, `/api/admin/connected`)).toBe(401);
    const log = await (await admin.client.request("/api/admin/logs?action=session.revoke&limit=200")).json();
    const revoked = log.entries.map((e: { actor: { id: string }; target: string }) => [e.actor.id, e.target]);
    expect(revoked).toEqual(
      expect.arrayContaining([
        [owner.user.id, staffA.user.id],
        [admin.user.id, staffB.user.id],
      ]),
    );
  });
});

describe("issue 22 row 15: a manager sees only the team members below them", () => {
  it("issue 22 row 15: a manager (role admin) neither sees nor ends the owner's or another manager's sessions; the owner sees all", async () => {
    const { shop, owner: boss } = await shopWithOwner(t, { name: "Boutique des managers" });
    const manager = await signedIn(t);
    await addStaff(t.deps, shop.id, manager.user.id, "admin");
    const otherManager = await signedIn(t);
    await addStaff(t.deps, shop.id, otherManager.user.id, "admin");
    const member = await signedIn(t);
    await addStaff(t.deps, shop.id, member.user.id, "member");
    const sessionOf = async (userId: string) =>
      (await t.deps.db.select().from(sessionTable).where(eq(sessionTable.userId, userId)))[0]!.id;
    const seenBy = async (client: Client) =>
      new Set(
        ((await (await client.request("/api/admin/sessions")).json()).sessions as { user: { id: string } }[]).map(
          (s) => s.user.id,
        ),
      );

    const managerView = await seenBy(manager.client);
    expect(managerView.has(member.user.id)).toBe(true);
    expect(managerView.has(boss.user.id)).toBe(false);
    expect(managerView.has(otherManager.user.id)).toBe(false);
    // Ending the owner's (or a peer's) session is the same 404 as an unknown id, and they stay signed in.
    for (const target of [boss, otherManager]) {
      const id = await sessionOf(target.user.id);
      expect(await statusOf(manager.client, `/api/admin/sessions/${id}`, { method: "DELETE" })).toBe(404);
      expect(await statusOf(target.client, `/api/backoffice/shops/${shop.id}/today`)).toBe(200);
    }
    // The owner sees everyone in the team; the manager still ends a member's session.
    const ownerView = await seenBy(boss.client);
    for (const who of [manager, otherManager, member]) expect(ownerView.has(who.user.id)).toBe(true);
    const memberSession = await sessionOf(member.user.id);
    expect(await statusOf(manager.client, `/api/admin/sessions/${memberSession}`, { method: "DELETE" })).toBe(200);
    expect(await statusOf(member.client, `/api/backoffice/shops/${shop.id}/today`)).toBe(401);
  });
});

describe("/api/admin/overview and the outbox (platform admin only)", () => {
  it("the admin sees the platform's counts and health; nobody else does", async () => {
    const res = await admin.client.request("/api/admin/overview");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.activity.shops).toBeGreaterThanOrEqual(2);
    expect(body.activity.scans).toBeGreaterThanOrEqual(1);
    expect(body.health.database).toMatch(/PGlite|PostgreSQL/);
    expect(body.daily).toHaveLength(30);
    expect(body.daily.at(-1).date).toBe(new Date().toISOString().slice(0, 10));
    expect(body.daily.at(-1).scans).toBeGreaterThanOrEqual(1);
    expect(body.daily.at(-1)).toEqual(
      expect.objectContaining({ redemptions: expect.any(Number), messages: expect.any(Number) }),
    );
    expect(typeof body.health.outbox).toBe("number");
    for (const path of ["/api/admin/overview", "/api/admin/outbox"]) {
      expect(await statusOf(anonymous, path)).toBe(401);
      // (staff A and B were signed out above.)
      for (const who of [shopper, customer, owner]) expect(await statusOf(who.client, path)).toBe(403);
    }
  });
});

describe("/api/admin/users (platform admin only)", () => {
  it("the admin finds an account, signs it out everywhere, bans it (with a reason) and unbans it; each is logged", async () => {
    const target = await signedIn(t);
    const found = await (
      await admin.client.request(`/api/admin/users?q=${encodeURIComponent(target.user.email)}`)
    ).json();
    expect(found.users).toHaveLength(1);
    expect(found.users[0]).toMatchObject({ id: target.user.id, banned: false, sessions: 1 });

    expect(await statusOf(target.client, "/api/accounts/me")).toBe(200);
    expect(await statusOf(admin.client, `/api/admin/users/${target.user.id}/sign-out`, { method: "POST" })).toBe(200);
    expect((await (await target.client.request("/api/accounts/me")).json()).me).toBeNull();

    const again = await signedIn(t, { email: `rebanni-${newKey()}@test.fidele.local` });
    expect(await statusOf(admin.client, `/api/admin/users/${again.user.id}/ban`, { json: { reason: "x" } })).toBe(400);
    expect(
      await statusOf(admin.client, `/api/admin/users/${again.user.id}/ban`, { json: { reason: "Spam répété" } }),
    ).toBe(200);
    expect((await (await again.client.request("/api/accounts/me")).json()).me).toBeNull();
    const banned = await (
      await admin.client.request(`/api/admin/users?q=${encodeURIComponent(again.user.email)}`)
    ).json();
    expect(banned.users[0]).toMatchObject({ banned: true, banReason: "Spam répété" });
    expect(await statusOf(admin.client, `/api/admin/users/${again.user.id}/unban`, { method: "POST" })).toBe(200);

    // Another admin, or an unknown id, is not a target.
    const otherAdmin = await signedIn(t, { role: "admin" });
    expect(
      await statusOf(admin.client, `/api/admin/users/${otherAdmin.user.id}/ban`, { json: { reason: "Essai" } }),
    ).toBe(403);
    expect(await statusOf(admin.client, "/api/admin/users/inconnu/sign-out", { method: "POST" })).toBe(404);

    const log = await (await admin.client.request("/api/admin/logs?limit=200")).json();
    const mine = log.entries.filter(
      (e: { target: string }) => e.target === target.user.id || e.target === again.user.id,
    );
    expect(mine.map((e: { action: string }) => e.action).sort()).toEqual(["user.ban", "user.signout", "user.unban"]);
  });

  it("the admin resends a confirmation link to an unconfirmed address, not to a confirmed one", async () => {
    const newcomer = await signedIn(t, { emailVerified: false });
    const res = await admin.client.request(`/api/admin/users/${newcomer.user.id}/resend-confirmation`, {
      method: "POST",
    });
    expect(res.status).toBe(200);
    expect(t.lastMail(newcomer.user.email, "confirmation").text).toContain("verify-email");
    const confirmed = await admin.client.request(`/api/admin/users/${owner.user.id}/resend-confirmation`, {
      method: "POST",
    });
    expect(confirmed.status).toBe(409);
    expect((await confirmed.json()).message).toBe("Cette adresse est déjà confirmée.");
    expect(
      await statusOf(owner.client, `/api/admin/users/${newcomer.user.id}/resend-confirmation`, { method: "POST" }),
    ).toBe(403);
  });

  it("nobody else lists or acts on accounts", async () => {
    const victim = await signedIn(t);
    for (const who of [anonymous, shopper.client, customer.client, owner.client]) {
      const expected = who === anonymous ? 401 : 403;
      expect(await statusOf(who, "/api/admin/users")).toBe(expected);
      expect(await statusOf(who, `/api/admin/users/${victim.user.id}/ban`, { json: { reason: "Essai" } })).toBe(
        expected,
      );
      expect(await statusOf(who, `/api/admin/users/${victim.user.id}/sign-out`, { method: "POST" })).toBe(expected);
    }
    expect(await statusOf(victim.client, "/api/accounts/me")).toBe(200);
  });
});

describe("membership changes in the audit log", () => {
  it("an invitation, its acceptance and the member's removal are each logged with the shop", async () => {
    const { shop, owner: shopOwner } = await shopWithOwner(t, { name: "Maison Journal" });
    const invitee = await signedIn(t);
    const res = await shopOwner.client.request(`/api/backoffice/shops/${shop.id}/invitations`, {
      json: { email: invitee.user.email },
    });
    expect(res.status).toBe(201);
    const { invitation } = await res.json();
    const accepted = await invitee.client.request(`/api/backoffice/invitations/${invitation.id}/accept`, {
      method: "POST",
    });
    expect(accepted.status).toBe(200);
    const team = await (await shopOwner.client.request(`/api/backoffice/shops/${shop.id}/team`)).json();
    const staff = team.members.find((m: { email: string }) => m.email === invitee.user.email);
    const removed = await shopOwner.client.request(`/api/backoffice/shops/${shop.id}/members/${staff.id}`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(200);
    const log = await (await admin.client.request(`/api/admin/logs?shopId=${shop.id}`)).json();
    const rows = log.entries.map((e: { action: string; actor: { id: string } | null }) => [e.action, e.actor?.id]);
    expect(rows).toEqual([
      ["member.remove", shopOwner.user.id],
      ["member.join", invitee.user.id],
      ["member.invite", shopOwner.user.id],
    ]);
  });
});
