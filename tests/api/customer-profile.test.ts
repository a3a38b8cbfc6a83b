import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff } from "../../src/server/db/factories.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { type Client, newKey, scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

/** Issue 16, item 8: /profile/{id} — as a shop sees its customer, as the person sees themself, else the one 404. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function world() {
  const rules = { mode: "points" as const, pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 20 };
  const a = await shopWithOwner(t, { rules });
  const b = await shopWithOwner(t, { rules });
  const customer = await signedIn(t, { firstName: "Inès", lastName: "Barthélemy" });
  expect((await scan(customer.client, t.deps.db, a.shop.id)).body.accepted).toBe(true);
  const staffA = await signedIn(t);
  await addStaff(t.deps, a.shop.id, staffA.user.id, "member");
  const stranger = await signedIn(t);
  return { a, b, customer, staffA, stranger };
}

const profileOf = (client: Client, id: string) => client.request(`/api/profiles/${id}`);

describe("/profile/{id}", () => {
  it("a shop's team sees the customer as the shop does: card, balance, ledger, note", async () => {
    const { a, customer, staffA } = await world();
    for (const viewer of [a.owner, staffA]) {
      const res = await profileOf(viewer.client, customer.user.id);
      expect(res.status).toBe(200);
      const { profile } = await res.json();
      expect(profile.kind).toBe("shop");
      expect(profile.person).toMatchObject({ firstName: "Inès", lastName: "Barthélemy", email: customer.user.email });
      expect(profile.shops).toHaveLength(1);
      expect(profile.shops[0]).toMatchObject({ shopId: a.shop.id, card: { balance: 10, visits: 1 } });
      expect(profile.shops[0].entries[0]).toMatchObject({ kind: "scan", delta: 10 });
    }
  });

  it("the owner adjusts with a reason (the existing route) and writes a private note; both show on the profile", async () => {
    const { a, customer, staffA } = await world();
    const before = (await (await profileOf(a.owner.client, customer.user.id)).json()).profile;
    const cardId = before.shops[0].card.id as string;
    const adjust = await a.owner.client.request(`/api/backoffice/shops/${a.shop.id}/adjust`, {
      json: { cardId, delta: 25, reason: "Geste commercial", idempotencyKey: newKey() },
    });
    expect(adjust.status).toBe(201);
    const note = await staffA.client.request(`/api/backoffice/shops/${a.shop.id}/customers/${customer.user.id}/note`, {
      method: "PUT",
      json: { note: "Préfère le pain aux céréales." },
    });
    expect(note.status).toBe(200);
    const after = (await (await profileOf(a.owner.client, customer.user.id)).json()).profile;
    expect(after.shops[0].card.balance).toBe(35);
    expect(after.shops[0].entries[0]).toMatchObject({ delta: 25, reason: "Geste commercial" });
    expect(after.shops[0].note).toBe("Préfère le pain aux céréales.");
    // The note is the shop's: the customer does not see it on their own profile.
    const own = await (await profileOf(customer.client, customer.user.id)).text();
    expect(own).not.toContain("céréales");
  });

  it("the person sees their own public profile", async () => {
    const { a, customer } = await world();
    const res = await profileOf(customer.client, customer.user.id);
    expect(res.status).toBe(200);
    const { profile } = await res.json();
    expect(profile).toMatchObject({ kind: "self", person: { firstName: "Inès" } });
    expect(profile.cards).toEqual([expect.objectContaining({ shopName: a.shop.name, balance: 10 })]);
    expect(profile.person.email).toBeUndefined();
  });

  it("a stranger, another shop's owner and an unknown id get the same 404, byte for byte", async () => {
    const { b, customer, stranger } = await world();
    const unknown = await profileOf(stranger.client, randomUUID());
    const unknownBody = await unknown.text();
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknownBody).message).toBe("Ce profil est introuvable.");
    for (const viewer of [stranger, b.owner]) {
      const res = await profileOf(viewer.client, customer.user.id);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe(unknown.headers.get("content-type"));
      expect(await res.text()).toBe(unknownBody);
    }
    // Another shop cannot attach a note to someone who is not its customer either.
    const note = await b.owner.client.request(`/api/backoffice/shops/${b.shop.id}/customers/${customer.user.id}/note`, {
      method: "PUT",
      json: { note: "Espion" },
    });
    expect(note.status).toBe(404);
    expect(await note.text()).toBe(unknownBody);
    // Signed out: asked to sign in, whatever the id.
    expect((await profileOf(t.client(), customer.user.id)).status).toBe(401);
  });
});
