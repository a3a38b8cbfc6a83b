import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { newKey, posterFor, scan, shopWithOwner, signedIn, tokenFor } from "./shops-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("POST /api/cards/scan", () => {
  it("credits a first visit, then refuses a second inside the cooldown with the time, in French", async () => {
    const { shop } = await shopWithOwner(t, { name: "Café des Halles" });
    const { client } = await signedIn(t);
    const first = await scan(client, t.deps.db, shop.id);
    expect(first.res.status).toBe(200);
    expect(first.body).toMatchObject({ outcome: "accepted", accepted: true, delta: 1 });
    expect(first.body.card?.balance).toBe(1);
    expect(first.body.message).toContain("Café des Halles");

    const second = await scan(client, t.deps.db, shop.id);
    expect(second.body.outcome).toBe("cooldown");
    expect(second.body.accepted).toBe(false);
    expect(second.body.message).toMatch(/Prochain passage possible (aujourd'hui|demain) à \d{1,2} h \d{2}/);
    expect(second.body.card?.balance).toBe(1);
  });

  it("returns the first answer to a retry with the same key", async () => {
    const { shop } = await shopWithOwner(t);
    const { client } = await signedIn(t);
    const key = newKey();
    const a = await scan(client, t.deps.db, shop.id, { key });
    const b = await scan(client, t.deps.db, shop.id, { key });
    expect(b.res.headers.get("idempotent-replayed")).toBe("true");
    expect(b.body).toEqual(a.body);
  });

  it("refuses a token older than 60 s", async () => {
    const { shop } = await shopWithOwner(t);
    const { client } = await signedIn(t);
    const { scanUid, token } = await tokenFor(t.deps.db, shop.id, Date.now() - 61_000);
    const res = await client.request("/api/cards/scan", { json: { scanUid, token, idempotencyKey: newKey() } });
    const body = await res.json();
    expect(body.outcome).toBe("stale_code");
    expect(body.message).toContain("expiré");
  });
});

describe("scan outcomes", () => {
  it("a suspended shop refuses every scan, in French, and records it; reactivated, it credits again", async () => {
    const { shop, owner } = await shopWithOwner(t, { name: "Fleurs de Lou" });
    const admin = await signedIn(t, { role: "admin" });
    const { client } = await signedIn(t);
    const suspend = await admin.client.request(`/api/backoffice/platform/shops/${shop.id}/suspend`, { json: { reason: "Fraude signalée" } });
    expect(suspend.status).toBe(200);
    const refused = await scan(client, t.deps.db, shop.id);
    expect(refused.body).toMatchObject({ outcome: "suspended", accepted: false, card: null });
    expect(refused.body.message).toBe("Fleurs de Lou est momentanément suspendue sur Fidèle : aucun passage ne peut être crédité.");
    const history = await (await owner.client.request(`/api/backoffice/shops/${shop.id}/scans?outcome=suspended`)).json();
    expect(history.total).toBe(1);
    expect(history.scans[0].outcomeLabel).toBe("Boutique suspendue");
    await admin.client.request(`/api/backoffice/platform/shops/${shop.id}/reactivate`, { method: "POST" });
    expect((await scan(client, t.deps.db, shop.id)).body.outcome).toBe("accepted");
  });

  it("the static poster counts only when the shop allows it, under the same cooldown", async () => {
    const { shop, owner } = await shopWithOwner(t, { rules: { allowStaticPoster: false } });
    const { client } = await signedIn(t);
    const { scanUid, poster } = await posterFor(t.deps.db, shop.id);
    const post = (p: string) => client.request("/api/cards/scan", { json: { scanUid, poster: p, idempotencyKey: newKey() } }).then((r) => r.json());
    expect((await post(poster)).outcome).toBe("poster_disabled");
    expect((await owner.client.request(`/api/backoffice/shops/${shop.id}/poster.pdf`)).status).toBe(409);

    const settings = (await (await owner.client.request(`/api/backoffice/shops/${shop.id}/card`)).json()).card;
    const { summary: _s, shop: _shop, ...rules } = settings;
    const put = await owner.client.request(`/api/backoffice/shops/${shop.id}/card`, { method: "PUT", json: { ...rules, allowStaticPoster: true } });
    expect(put.status).toBe(200);
    expect((await post(poster)).outcome).toBe("accepted");
    expect((await post(poster)).outcome).toBe("cooldown");
    expect((await post("AAAAAAAAAAAAAAAA")).outcome).toBe("invalid_code");

    const pdf = await owner.client.request(`/api/backoffice/shops/${shop.id}/poster.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 8).toString("latin1")).toBe("%PDF-1.4");
    expect(bytes.toString("latin1")).toContain("(Scannez ce code avec votre t\xe9l\xe9phone) Tj");
    expect(bytes.toString("latin1").trimEnd().endsWith("%%EOF")).toBe(true);
  });

  it("renewing the code key voids earlier codes", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const { client } = await signedIn(t);
    const old = await tokenFor(t.deps.db, shop.id);
    expect((await owner.client.request(`/api/backoffice/shops/${shop.id}/code-secret`, { method: "POST" })).status).toBe(200);
    const res = await client.request("/api/cards/scan", { json: { ...old, idempotencyKey: newKey() } });
    expect((await res.json()).outcome).toBe("invalid_code");
    expect((await scan(client, t.deps.db, shop.id)).body.outcome).toBe("accepted");
  });

  it("an unknown shop code is refused and recorded", async () => {
    const { client } = await signedIn(t);
    const res = await client.request("/api/cards/scan", { json: { scanUid: "inconnu-0000", token: "0.AAAAAAAAAAAAAAAA", idempotencyKey: newKey() } });
    const body = await res.json();
    expect(body).toMatchObject({ outcome: "unknown_shop", accepted: false, shop: null });
    expect(body.message).toBe("Ce code ne correspond à aucune boutique Fidèle.");
  });

  it("a double-points period set after the code was cached applies at the next scan", async () => {
    const { shop, owner } = await shopWithOwner(t, { name: "Le Fournil", rules: { mode: "points", pointsPerVisit: 10 } });
    const early = await signedIn(t);
    expect((await scan(early.client, t.deps.db, shop.id)).body.delta).toBe(10); // the scan path now caches this shop
    const created = await owner.client.request(`/api/backoffice/shops/${shop.id}/double-points`, {
      json: { label: "Semaine anniversaire", multiplier: 3 },
    });
    expect(created.status).toBe(201);
    const { client } = await signedIn(t);
    const { body } = await scan(client, t.deps.db, shop.id);
    expect(body).toMatchObject({ outcome: "accepted", delta: 30, multiplier: 3 });
    expect(body.message).toBe("Points ×3 ! 30 points ajoutés chez Le Fournil.");
    const activity = await (await client.request("/api/cards/activity")).json();
    expect(activity.entries[0]).toMatchObject({ kind: "double_points", delta: 30, reason: "Semaine anniversaire" });
  });

  it("flags many accounts on one device and scans far outside opening hours, for the owner", async () => {
    // Open only on a day three days from now: now is far outside the hours.
    const openDay = (new Date().getUTCDay() + 3) % 7; // 0 = Sunday
    const weekly: { open: string; close: string }[][] = [[], [], [], [], [], [], []];
    weekly[(openDay + 6) % 7] = [{ open: "10:00", close: "11:00" }];
    const { shop, owner } = await shopWithOwner(t, { weeklyHours: weekly });
    for (let i = 0; i < 3; i++) {
      const { client } = await signedIn(t);
      expect((await scan(client, t.deps.db, shop.id, { deviceId: `telephone-partage-${shop.id}` })).body.outcome).toBe("accepted");
    }
    const flagged = await (await owner.client.request(`/api/backoffice/shops/${shop.id}/scans?flagged=1`)).json();
    expect(flagged.total).toBe(3);
    expect(flagged.scans.every((s: { flags: string[] }) => s.flags.includes("outside_hours"))).toBe(true);
    expect(flagged.scans.filter((s: { flags: string[] }) => s.flags.includes("shared_device"))).toHaveLength(1);
    expect(flagged.scans[0].flagLabels).toContain("En dehors des heures d'ouverture");
  });

  it("bad input is a 400 in French; signed out is a 401", async () => {
    const { client } = await signedIn(t);
    const bad = await client.request("/api/cards/scan", { json: { scanUid: "x", idempotencyKey: "k" } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe("Ce code ne correspond à aucune boutique Fidèle.");
    const noToken = await client.request("/api/cards/scan", { json: { scanUid: "Abcdefgh1234", idempotencyKey: newKey() } });
    expect((await noToken.json()).message).toBe("Ce code est incomplet : scannez le code affiché au comptoir.");
    const anonymous = await t.client().request("/api/cards/scan", { json: { scanUid: "Abcdefgh1234", token: "x", idempotencyKey: newKey() } });
    expect(anonymous.status).toBe(401);
  });
});

describe("my cards and activity", () => {
  it("lists my cards with the shop's design and progress, and my ledger; another's card is 404", async () => {
    const { shop } = await shopWithOwner(t, { name: "Chez Marcel", rules: { mode: "stamps", stampsGoal: 8 } });
    const me = await signedIn(t);
    const other = await signedIn(t);
    await scan(me.client, t.deps.db, shop.id);
    const { cards } = await (await me.client.request("/api/cards")).json();
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({
      shop: { name: "Chez Marcel", design: { background: "#0f766e", stampIcon: "star" } },
      mode: "stamps",
      balance: 1,
      visits: 1,
      progress: { mode: "stamps", stamps: 1, goal: 8, isFull: false },
      canScanNow: false,
    });
    expect(typeof cards[0].nextScanAt).toBe("string");
    const detail = await (await me.client.request(`/api/cards/${cards[0].id}`)).json();
    expect(detail.entries).toHaveLength(1);
    expect(detail.entries[0]).toMatchObject({ kind: "scan", kindLabel: "Passage en boutique", delta: 1, shop: { name: "Chez Marcel" } });
    expect((await other.client.request(`/api/cards/${cards[0].id}`)).status).toBe(404);
    expect((await other.client.request("/api/cards")).status).toBe(200);
    expect((await (await other.client.request("/api/cards/activity")).json()).entries).toEqual([]);
  });

  it("staff credit a visit by personal code (then e-mail, once a customer) under the same rules, and correct it with a reason", async () => {
    const { shop, owner } = await shopWithOwner(t, { rules: { mode: "points", pointsPerVisit: 10 } });
    const customer = await signedIn(t);
    const { personalCode } = await (await customer.client.request("/api/cards/personal-code")).json();
    const key = newKey();
    const credit = await owner.client.request(`/api/backoffice/shops/${shop.id}/credit`, {
      json: { code: personalCode.display, idempotencyKey: key },
    });
    const body = await credit.json();
    expect(body).toMatchObject({ outcome: "accepted", delta: 10, customer: { firstName: "Camille" } });
    const again = await owner.client.request(`/api/backoffice/shops/${shop.id}/credit`, {
      json: { code: personalCode.code, idempotencyKey: key },
    });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const second = await owner.client.request(`/api/backoffice/shops/${shop.id}/credit`, { json: { email: customer.user.email, idempotencyKey: newKey() } });
    expect((await second.json()).outcome).toBe("cooldown");
    const unknown = await owner.client.request(`/api/backoffice/shops/${shop.id}/credit`, { json: { email: "personne@test.fidele.local", idempotencyKey: newKey() } });
    expect(unknown.status).toBe(404);

    const lookup = await (await owner.client.request(`/api/backoffice/shops/${shop.id}/lookup?email=${encodeURIComponent(customer.user.email)}`)).json();
    const fix = await owner.client.request(`/api/backoffice/shops/${shop.id}/adjust`, {
      json: { cardId: lookup.customer.cardId, delta: 5, reason: "Achat oublié", idempotencyKey: newKey() },
    });
    expect(fix.status).toBe(201);
    expect(await fix.json()).toMatchObject({ entry: { kind: "adjustment", delta: 5, reason: "Achat oublié" }, card: { balance: 15 } });
    const today = await (await owner.client.request(`/api/backoffice/shops/${shop.id}/today`)).json();
    expect(today.scans.map((s: { outcome: string; byStaff: boolean }) => [s.outcome, s.byStaff])).toEqual([
      ["cooldown", true],
      ["accepted", true],
    ]);
  });
});
