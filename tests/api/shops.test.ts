import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createShop } from "../../src/server/db/factories.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const REGISTRATION = {
  name: "Boulangerie Saint-Éloi",
  category: "boulangerie",
  address: "4 rue de la Paix",
  city: "Villeurbanne",
  postalCode: "69100",
  phone: "+33 4 78 12 34 56",
  siret: "732 829 320 00074",
  lat: 45.7719,
  lng: 4.8902,
};

describe("POST /api/shops (shop sign-up)", () => {
  it("creates the shop with its card settings and makes the person its owner", async () => {
    const { client } = await signedIn(t);
    const res = await client.request("/api/shops", { json: REGISTRATION });
    expect(res.status).toBe(201);
    const { shop } = await res.json();
    expect(shop).toMatchObject({ name: "Boulangerie Saint-Éloi", slug: "boulangerie-saint-eloi" });
    const mine = await (await client.request("/api/shops/mine")).json();
    expect(mine.shops).toEqual([{ id: shop.id, slug: shop.slug, name: shop.name, status: "active", role: "owner" }]);
    const page = await (await client.request(`/api/shops/${shop.slug}`)).json();
    expect(page.shop).toMatchObject({ phone: "04 78 12 34 56", city: "Villeurbanne", lat: 45.7719 });
    expect(page.rules).toMatchObject({ mode: "stamps", stampsGoal: 10, cooldownMinutes: 240, dailyCap: 2 });
    expect(page.rules.summary).toBe("1 tampon par passage, carte de 10 tampons · un passage crédité toutes les 4 heures au plus · 2 passages crédités par jour au plus");
    const overview = await (await client.request(`/api/backoffice/shops/${shop.id}`)).json();
    expect(overview.shop.role).toBe("owner");
    // The same name again gets its own slug.
    const again = await (await client.request("/api/shops", { json: REGISTRATION })).json();
    expect(again.shop.slug).toMatch(/^boulangerie-saint-eloi-[0-9a-f]{4}$/);
  });

  it("names every bad field in French", async () => {
    const { client } = await signedIn(t);
    const res = await client.request("/api/shops", {
      json: { ...REGISTRATION, siret: "12345678901234", postalCode: "6900", phone: "12", category: "garage", lat: 45 },
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.fields).toMatchObject({
      siret: "Ce numéro SIRET n'est pas valide (vérifiez les chiffres).",
      postalCode: "Le code postal doit contenir 5 chiffres.",
      phone: "Le numéro de téléphone doit contenir 10 chiffres (ex. 01 23 45 67 89).",
      category: "Choisissez une catégorie.",
    });
    expect((await t.client().request("/api/shops", { json: REGISTRATION })).status).toBe(401);
  });
});

describe("finding shops", () => {
  let prefix: string;
  beforeAll(async () => {
    prefix = `Zq${Math.random().toString(36).slice(2, 7)}`;
    const owner = await t.createUser({ withoutPassword: true });
    await createShop(t.deps, { ownerId: owner.id, name: `${prefix} Épicerie Fine`, category: "epicerie", city: "Lyon", lat: 45.764, lng: 4.8357 });
    await createShop(t.deps, { ownerId: owner.id, name: `${prefix} Café du Port`, category: "cafe", city: "Marseille", lat: 43.2965, lng: 5.3698 });
    await createShop(t.deps, { ownerId: owner.id, name: `${prefix} Fromagerie`, category: "fromagerie", city: "Villeurbanne", lat: 45.7719, lng: 4.8902 });
    await createShop(t.deps, { ownerId: owner.id, name: `${prefix} Sans Repère`, category: "autre", city: "Lyon" });
    await createShop(t.deps, { ownerId: owner.id, name: `${prefix} Suspendue`, category: "autre", city: "Lyon", status: "suspended" });
  });

  it("searches by name without accents, by city and by category; suspended shops are not listed", async () => {
    const byName = await (await t.request(`/api/shops?q=${encodeURIComponent(`${prefix} epicerie`)}`)).json();
    expect(byName.shops.map((s: { name: string }) => s.name)).toEqual([`${prefix} Épicerie Fine`]);
    const byCity = await (await t.request(`/api/shops?q=${prefix}&city=lyon`)).json();
    expect(byCity.shops.map((s: { name: string }) => s.name)).toEqual([`${prefix} Épicerie Fine`, `${prefix} Sans Repère`]);
    const byCategory = await (await t.request(`/api/shops?q=${prefix}&category=cafe`)).json();
    expect(byCategory.shops).toHaveLength(1);
    expect(byCategory.shops[0]).toMatchObject({ categoryLabel: "Café – Bar", city: "Marseille", distanceKm: null, open: { label: "Horaires non renseignés" } });
    const paged = await (await t.request(`/api/shops?q=${prefix}&limit=2`)).json();
    expect(paged).toMatchObject({ hasMore: true, sortedBy: "name" });
  });

  it("nearby sorts by distance within a radius, and works without a position", async () => {
    const near = await (await t.request(`/api/shops/nearby?q=${prefix}&lat=45.7640&lng=4.8357`)).json();
    expect(near.sortedBy).toBe("distance");
    expect(near.shops.map((s: { name: string; distanceKm: number }) => [s.name, s.distanceKm])).toEqual([
      [`${prefix} Épicerie Fine`, 0],
      // Haversine from (45.7640, 4.8357) to (45.7719, 4.8902), to 0.1 km.
      [`${prefix} Fromagerie`, 4.3],
    ]);
    const wide = await (await t.request(`/api/shops/nearby?q=${prefix}&lat=45.7640&lng=4.8357&radiusKm=400`)).json();
    expect(wide.shops.at(-1)).toMatchObject({ city: "Marseille" });
    expect(wide.shops.at(-1).distanceKm).toBeGreaterThan(270);
    const without = await (await t.request(`/api/shops/nearby?q=${prefix}`)).json();
    expect(without.sortedBy).toBe("name");
    expect(without.shops).toHaveLength(4);
    const bad = await t.request("/api/shops/nearby?lat=45");
    expect(bad.status).toBe(400);
  });
});

describe("GET /api/shops/:slug", () => {
  it("shows hours with 'ouvert maintenant', the card rules, and my card when signed in", async () => {
    const allDay = [{ open: "00:00", close: "24:00" }];
    const { shop } = await shopWithOwner(t, { name: "Toujours Ouvert", weeklyHours: [allDay, allDay, allDay, allDay, allDay, allDay, allDay] });
    const anonymous = await (await t.request(`/api/shops/${shop.slug}`)).json();
    expect(anonymous.hours.isOpen).toBe(true);
    expect(anonymous.hours.label).toMatch(/^Ouvert maintenant/);
    expect(anonymous.hours.weekly).toHaveLength(7);
    expect(anonymous.hours.weekly[0]).toMatchObject({ weekday: 1, dayLabel: "lundi", text: "0 h 00 – 0 h 00" });
    expect(anonymous.myCard).toBeNull();
    expect(anonymous.shop.mapUrl).toContain("https://www.google.com/maps/search/?api=1&query=");
    expect(JSON.stringify(anonymous)).not.toContain(shop.scanUid);

    const { client } = await signedIn(t);
    await scan(client, t.deps.db, shop.id);
    const mine = await (await client.request(`/api/shops/${shop.slug}`)).json();
    expect(mine.myCard).toMatchObject({ balance: 1, visits: 1, canScanNow: false, progress: { stamps: 1, goal: 10 } });
    expect(mine.canReview).toBe(true);
    expect((await t.request("/api/shops/pas-de-boutique-ici")).status).toBe(404);
  });

  it("tells the shop of a scanned code, without its secrets", async () => {
    const { shop } = await shopWithOwner(t, { name: "Code Boutique" });
    const res = await (await t.request(`/api/shops/by-scan/${shop.scanUid}`)).json();
    expect(res.shop).toMatchObject({ slug: shop.slug, name: "Code Boutique", status: "active" });
    expect((await t.request("/api/shops/by-scan/inconnu-12345")).status).toBe(404);
  });

  it("serves the logo saved on the shop page", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    const page = (await (await owner.client.request(`/api/backoffice/shops/${shop.id}/page`)).json()).page;
    const { slug: _slug, ...content } = page;
    const saved = await owner.client.request(`/api/backoffice/shops/${shop.id}/page`, {
      method: "PUT",
      json: { ...content, description: "Pain au levain", logo: `data:image/png;base64,${png}`, links: { website: "https://exemple.fr" } },
    });
    expect(saved.status).toBe(200);
    const detail = await (await t.request(`/api/shops/${shop.slug}`)).json();
    expect(detail.shop.description).toBe("Pain au levain");
    expect(detail.shop.links.website).toBe("https://exemple.fr");
    // Linked, not inlined: the page's answer carries no image and no secret.
    expect(detail.shop.coverUrl).toBeNull();
    expect(JSON.stringify(detail)).not.toMatch(/data:image|codeSecret|receiptSecret|walletLogo/);
    const logo = await t.request(detail.shop.logoUrl);
    expect(logo.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await logo.arrayBuffer())).toEqual(Buffer.from(png, "base64"));
    const tooBig = await owner.client.request(`/api/backoffice/shops/${shop.id}/page`, {
      method: "PUT",
      json: { ...content, logo: `data:image/png;base64,${"A".repeat(300_000)}` },
    });
    expect(tooBig.status).toBe(400);
    expect((await tooBig.json()).message).toBe("Logo : l'image doit peser au plus 200 Ko.");
  });
});

describe("reviews", () => {
  it("one per customer, editable, refused to non-customers, never rewarded", async () => {
    const { shop } = await shopWithOwner(t);
    const customer = await signedIn(t, { firstName: "Inès", lastName: "Durand" });
    const stranger = await signedIn(t);
    const denied = await stranger.client.request(`/api/shops/${shop.slug}/review`, { method: "PUT", json: { rating: 5 } });
    expect(denied.status).toBe(403);
    expect((await denied.json()).message).toContain("Seuls les clients");

    const first = await scan(customer.client, t.deps.db, shop.id);
    const balanceBefore = first.body.card!.balance;
    const created = await customer.client.request(`/api/shops/${shop.slug}/review`, { method: "PUT", json: { rating: 4, comment: "Très bon pain" } });
    expect(created.status).toBe(201);
    const edited = await customer.client.request(`/api/shops/${shop.slug}/review`, { method: "PUT", json: { rating: 5, comment: "Excellent" } });
    expect(edited.status).toBe(200);
    const list = await (await t.request(`/api/shops/${shop.slug}/reviews`)).json();
    expect(list.reviews).toEqual([expect.objectContaining({ rating: 5, comment: "Excellent", author: "Inès D." })]);
    const page = await (await customer.client.request(`/api/shops/${shop.slug}`)).json();
    expect(page.rating).toEqual({ average: 5, count: 1 });
    expect(page.myReview).toMatchObject({ rating: 5 });
    expect(page.myCard.balance).toBe(balanceBefore);
    const bad = await customer.client.request(`/api/shops/${shop.slug}/review`, { method: "PUT", json: { rating: 6 } });
    expect((await bad.json()).message).toBe("Donnez une note de 1 à 5.");
    expect((await customer.client.request(`/api/shops/${shop.slug}/review`, { method: "DELETE" })).status).toBe(200);
    expect((await customer.client.request(`/api/shops/${shop.slug}/review`, { method: "DELETE" })).status).toBe(404);
  });
});
