import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, localParts } from "../../src/domain/loyalty/time.ts";
import { createReward } from "../../src/server/db/factories.ts";
import { profiles, rewards } from "../../src/server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { newKey, scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const today = () => localParts(new Date(), "Europe/Paris").date;

describe("dashboard, customers and scans", () => {
  it("counts the last 30 days and lists customers and scans, with CSV exports for Excel", async () => {
    const { shop, owner } = await shopWithOwner(t, { rules: { mode: "points", pointsPerVisit: 10 } });
    const base = `/api/backoffice/shops/${shop.id}`;
    const alice = await signedIn(t, { firstName: "Alice", lastName: "Zeller" });
    const bob = await signedIn(t, { firstName: "=HYPERLINK(\"http://x\")", lastName: "Bernard" });
    await scan(alice.client, t.deps.db, shop.id);
    await scan(alice.client, t.deps.db, shop.id); // refused: cooldown
    await scan(bob.client, t.deps.db, shop.id);

    const dash = await (await owner.client.request(`${base}/dashboard`)).json();
    expect(dash.days).toHaveLength(30);
    expect(dash.to).toBe(today());
    expect(dash.days.at(-1)).toEqual({ date: today(), newCustomers: 2, scans: 2, refused: 1, points: 20, redemptions: 0 });
    expect(dash.totals).toMatchObject({ customers: 2, newCustomers: 2, activeCustomers: 2, scans: 2, refused: 1, points: 20, outstandingBalance: 20 });

    const byName = await (await owner.client.request(`${base}/customers?sort=name&order=asc`)).json();
    expect(byName.total).toBe(2);
    expect(byName.customers.map((c: { lastName: string }) => c.lastName)).toEqual(["Bernard", "Zeller"]);
    expect(byName.customers[1]).toMatchObject({ firstName: "Alice", email: alice.user.email, balance: 10, visits: 1 });
    const searched = await (await owner.client.request(`${base}/customers?q=zeller`)).json();
    expect(searched.customers).toHaveLength(1);

    const csvRes = await owner.client.request(`${base}/customers.csv?sort=name&order=asc`);
    expect(csvRes.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csvRes.headers.get("content-disposition")).toMatch(/^attachment; filename="clients-.+\.csv"$/);
    const bytes = new Uint8Array(await csvRes.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = new TextDecoder().decode(bytes);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("Prénom;Nom;E-mail;Solde;Total cumulé;Passages;Dernier passage;Client depuis");
    expect(lines[1]).toMatch(/^"'=HYPERLINK\(""http:\/\/x""\)";Bernard;/);
    expect(lines[2]).toMatch(new RegExp(`^Alice;Zeller;${alice.user.email.replace(/[.]/g, "\\.")};10;10;1;\\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2};`));

    const scans = await (await owner.client.request(`${base}/scans?from=${today()}&to=${today()}`)).json();
    expect(scans.total).toBe(3);
    expect(scans.scans.map((x: { outcome: string }) => x.outcome)).toEqual(["accepted", "cooldown", "accepted"]); // newest first
    expect(scans.scans[1]).toMatchObject({ outcomeLabel: "Trop tôt", methodLabel: "Code du comptoir", customer: { firstName: "Alice" } });
    const accepted = await (await owner.client.request(`${base}/scans?outcome=accepted`)).json();
    expect(accepted.total).toBe(2);
    const yesterday = await (await owner.client.request(`${base}/scans?to=${addDays(today(), -1)}`)).json();
    expect(yesterday.total).toBe(0);
    const scansCsv = await (await owner.client.request(`${base}/scans.csv`)).text();
    expect(scansCsv.split("\r\n")[0]).toBe("Date;Résultat;Mode;Points;Multiplicateur;Alerte;Prénom;Nom;E-mail;Appareil");
    expect(scansCsv).toContain(";Trop tôt;Code du comptoir;0;1;;Alice;Zeller;");

    const customer = await (await owner.client.request(`${base}/customers/${byName.customers[1].cardId}`)).json();
    expect(customer.entries).toEqual([expect.objectContaining({ kind: "scan", delta: 10, actorId: alice.user.id })]);
    const badDates = await owner.client.request(`${base}/scans?from=2026-05-02&to=2026-05-01`);
    expect(badDates.status).toBe(400);
  });
});

describe("settings", () => {
  it("saves hours (with a French error for overlaps) and the shop page shows them", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const url = `/api/backoffice/shops/${shop.id}/hours`;
    const overlap = await owner.client.request(url, {
      method: "PUT",
      json: { weekly: [[{ open: "09:00", close: "12:00" }, { open: "11:00", close: "14:00" }], [], [], [], [], [], []], closures: [] },
    });
    expect(overlap.status).toBe(400);
    expect((await overlap.json()).fields).toEqual({ "weekly.0": "Des plages horaires se chevauchent." });
    const week = [[{ open: "09:00", close: "12:30" }, { open: "14:00", close: "19:00" }], [], [], [], [], [{ open: "20:00", close: "02:00" }], []];
    const closures = [{ startDate: addDays(today(), 1), endDate: addDays(today(), 2), reason: "Inventaire" }];
    const saved = await owner.client.request(url, { method: "PUT", json: { weekly: week, closures } });
    expect(saved.status).toBe(200);
    expect((await saved.json()).hours).toMatchObject({ weekly: week, closures, timezone: "Europe/Paris" });
    const page = await (await t.request(`/api/shops/${shop.slug}`)).json();
    expect(page.hours.weekly[0].text).toBe("9 h 00 – 12 h 30, 14 h 00 – 19 h 00");
    expect(page.hours.weekly[5].text).toBe("20 h 00 – 2 h 00");
    expect(page.hours.closures).toEqual(closures);
  });

  it("saves the legal identity and the card design; new rules leave earned points alone", async () => {
    const { shop, owner } = await shopWithOwner(t, { rules: { mode: "points", pointsPerVisit: 10 } });
    const base = `/api/backoffice/shops/${shop.id}`;
    const legal = await owner.client.request(`${base}/legal`, {
      method: "PUT",
      json: { legalName: "SARL Le Fournil", legalForm: "SARL", siret: "73282932000074", vatNumber: "fr 12 732829320", shareCapital: "10 000 €" },
    });
    expect(legal.status).toBe(200);
    expect((await legal.json()).legal).toMatchObject({ legalName: "SARL Le Fournil", siret: "73282932000074", vatNumber: "FR12732829320", rcs: null });
    const badLegal = await owner.client.request(`${base}/legal`, { method: "PUT", json: { legalName: "X SARL", siret: "73282932000075" } });
    expect((await badLegal.json()).message).toBe("Ce numéro SIRET n'est pas valide (vérifiez les chiffres).");

    const customer = await signedIn(t);
    await scan(customer.client, t.deps.db, shop.id);
    const card = {
      mode: "points",
      stampsGoal: 12,
      pointsPerVisit: 50,
      cooldownMinutes: 60,
      dailyCap: 3,
      allowStaticPoster: false,
      design: { background: "#7c2d12", foreground: "#fff7ed", accent: "#facc15", stampIcon: "croissant" },
    };
    const put = await owner.client.request(`${base}/card`, { method: "PUT", json: card });
    expect((await put.json()).card).toMatchObject({ ...card, summary: "50 points par passage · un passage crédité par heure au plus · 3 passages crédités par jour au plus" });
    const mine = await (await customer.client.request("/api/cards")).json();
    expect(mine.cards[0]).toMatchObject({ balance: 10, pointsPerVisit: 50, shop: { design: card.design } });
    const badDesign = await owner.client.request(`${base}/card`, { method: "PUT", json: { ...card, design: { ...card.design, background: "red" } } });
    expect((await badDesign.json()).message).toBe("Fond : couleur invalide (#RRVVBB).");
  });

  it("issue 25 row 10: the card settings count the rewards on offer (active, not archived), for the owner only", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const base = `/api/backoffice/shops/${shop.id}`;
    expect((await (await owner.client.request(`${base}/card`)).json()).card.rewardsOffered).toBe(0);
    await createReward(t.deps, { shopId: shop.id, title: "Café offert", cost: 5 });
    const paused = await createReward(t.deps, { shopId: shop.id, title: "Croissant", cost: 8 });
    await t.deps.db.update(rewards).set({ isActive: false }).where(eq(rewards.id, paused.id));
    expect((await (await owner.client.request(`${base}/card`)).json()).card.rewardsOffered).toBe(1);
    const stranger = await signedIn(t);
    expect((await stranger.client.request(`${base}/card`)).status).toBe(403);
  });

  it("creates, edits and deletes double-points periods", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const base = `/api/backoffice/shops/${shop.id}/double-points`;
    const created = await owner.client.request(base, {
      json: { label: "Happy hour", weekdays: [3, 3, 1], startTime: "16:00", endTime: "18:00", multiplier: 2 },
    });
    expect(created.status).toBe(201);
    const { period } = await created.json();
    expect(period).toMatchObject({ label: "Happy hour", weekdays: [1, 3], startTime: "16:00", endTime: "18:00", multiplier: 2, isActive: true });
    const edited = await owner.client.request(`${base}/${period.id}`, {
      method: "PUT",
      json: { label: "Happy hour", weekdays: [3], startTime: "17:00", endTime: "19:00", multiplier: 3, isActive: false },
    });
    expect((await edited.json()).period).toMatchObject({ weekdays: [3], multiplier: 3, isActive: false });
    const invalid = await owner.client.request(base, { json: { label: "Soirée", startTime: "20:00", multiplier: 2 } });
    expect((await invalid.json()).message).toBe("Donnez l'heure de début et de fin, ou aucune.");
    const tooMuch = await owner.client.request(base, { json: { label: "Soirée", multiplier: 10 } });
    expect((await tooMuch.json()).message).toBe("Multiplicateur : au plus ×5.");
    expect((await (await owner.client.request(base)).json()).periods).toHaveLength(1);
    expect((await owner.client.request(`${base}/${period.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await (await owner.client.request(base)).json()).periods).toEqual([]);
  });

  it("the reader code scans, and changes every 30 s", async () => {
    const { shop, owner } = await shopWithOwner(t, { name: "Comptoir Test" });
    const reader = await (await owner.client.request(`/api/backoffice/shops/${shop.id}/reader`)).json();
    expect(reader.url).toMatch(new RegExp(`^http://fidele\\.test/boutique/${shop.scanUid}\\?t=[0-9a-z]+\\.[A-Za-z0-9_-]{16}$`));
    // The screen draws the QR code from the URL: the server does not draw one on every renewal (issue 25 row 11).
    expect(reader).not.toHaveProperty("svg");
    expect(Date.parse(reader.expiresAt) - Date.parse(reader.serverTime)).toBeLessThanOrEqual(30_000);
    const token = new URL(reader.url).searchParams.get("t");
    const { client } = await signedIn(t);
    const res = await client.request("/api/cards/scan", { json: { scanUid: shop.scanUid, token, idempotencyKey: newKey() } });
    expect((await res.json()).message).toBe("1 tampon ajouté chez Comptoir Test. Merci de votre visite !");
  });
});

describe("team invitations (better-auth organization plugin)", () => {
  it("the owner invites by e-mail; the invitee accepts and becomes staff; another account cannot accept", async () => {
    const { shop, owner } = await shopWithOwner(t, { name: "Maison Invite" });
    const invitee = await signedIn(t, { firstName: "Noé" });
    const intruder = await signedIn(t);
    const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/invitations`, { json: { email: invitee.user.email } });
    expect(res.status).toBe(201);
    const { invitation } = await res.json();
    const mail = t.lastMail(invitee.user.email, "invitation");
    expect(mail.text).toContain(`http://fidele.test/accept-invitation/${invitation.id}`);
    expect(mail.text).toContain("Maison Invite");

    const team = await (await owner.client.request(`/api/backoffice/shops/${shop.id}/team`)).json();
    expect(team.invitations).toEqual([expect.objectContaining({ email: invitee.user.email, role: "member", roleLabel: "Membre de l'équipe" })]);

    const seen = await (await intruder.client.request(`/api/backoffice/invitations/${invitation.id}`)).json();
    expect(seen.invitation).toMatchObject({ shop: { name: "Maison Invite" }, status: "pending", isForMe: false });
    const stolen = await intruder.client.request(`/api/backoffice/invitations/${invitation.id}/accept`, { method: "POST" });
    expect(stolen.status).toBe(403);
    expect((await stolen.json()).message).toBe("Cette invitation a été envoyée à une autre adresse e-mail : connectez-vous avec celle-ci.");

    expect((await invitee.client.request(`/api/backoffice/shops/${shop.id}/reader`)).status).toBe(403);
    const accepted = await invitee.client.request(`/api/backoffice/invitations/${invitation.id}/accept`, { method: "POST" });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ shopId: shop.id });
    expect((await invitee.client.request(`/api/backoffice/shops/${shop.id}/reader`)).status).toBe(200);
    expect((await invitee.client.request(`/api/backoffice/shops/${shop.id}/dashboard`)).status).toBe(403);
    const again = await invitee.client.request(`/api/backoffice/invitations/${invitation.id}/accept`, { method: "POST" });
    expect(again.status).toBe(404);

    const after = await (await owner.client.request(`/api/backoffice/shops/${shop.id}/team`)).json();
    const staff = after.members.find((m: { email: string }) => m.email === invitee.user.email);
    expect(staff).toMatchObject({ role: "member", firstName: "Noé" });
    const already = await owner.client.request(`/api/backoffice/shops/${shop.id}/invitations`, { json: { email: invitee.user.email } });
    expect(already.status).toBe(409);
    expect((await owner.client.request(`/api/backoffice/shops/${shop.id}/members/${staff.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await invitee.client.request(`/api/backoffice/shops/${shop.id}/reader`)).status).toBe(403);
    const ownerRow = after.members.find((m: { role: string }) => m.role === "owner");
    expect((await owner.client.request(`/api/backoffice/shops/${shop.id}/members/${ownerRow.id}`, { method: "DELETE" })).status).toBe(409);
  });

  it("cancels a pending invitation", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const { invitation } = await (await owner.client.request(`/api/backoffice/shops/${shop.id}/invitations`, { json: { email: "plus-tard@test.fidele.local" } })).json();
    expect((await owner.client.request(`/api/backoffice/shops/${shop.id}/invitations/${invitation.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await (await owner.client.request(`/api/backoffice/shops/${shop.id}/team`)).json()).invitations).toEqual([]);
  });
});

describe("platform admin", () => {
  it("lists every shop with its owner and suspends one with a reason", async () => {
    const { shop, owner } = await shopWithOwner(t, { name: `Plateforme ${Math.random().toString(36).slice(2, 7)}` });
    await t.deps.db.update(profiles).set({ firstName: "Paul" }).where(eq(profiles.id, owner.user.id));
    const admin = await signedIn(t, { role: "admin" });
    const list = await (await admin.client.request(`/api/backoffice/platform/shops?q=${encodeURIComponent(shop.name)}`)).json();
    expect(list.shops).toEqual([expect.objectContaining({ id: shop.id, status: "active", ownerEmail: owner.user.email, customers: 0 })]);
    const suspended = await admin.client.request(`/api/backoffice/platform/shops/${shop.id}/suspend`, { json: { reason: "Usage abusif" } });
    expect((await suspended.json()).shop).toEqual({ id: shop.id, status: "suspended", suspendedReason: "Usage abusif" });
    const overview = await (await owner.client.request(`/api/backoffice/shops/${shop.id}`)).json();
    expect(overview.shop).toMatchObject({ status: "suspended", suspendedReason: "Usage abusif" });
    const noReason = await admin.client.request(`/api/backoffice/platform/shops/${shop.id}/suspend`, { json: {} });
    expect(noReason.status).toBe(400);
    expect((await owner.client.request(`/api/backoffice/platform/shops/${shop.id}/reactivate`, { method: "POST" })).status).toBe(403);
  });
});
