import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff } from "../../src/server/db/factories.ts";
import { cards, doublePointsPeriods, invitation, member } from "../../src/server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { type Client, newKey, scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

/**
 * Staff of shop A get "not found" for every customer, scan and card of shop B on
 * every route; a shopper gets 403 on every back-office route; a staff member
 * (role "member") gets 403 on the owner's routes.
 */
let t: TestApp;
let shopA: { id: string };
let shopB: { id: string };
let ownerA: Client;
let staffA: Client;
let shopper: Client;
let admin: Client;
let anonymous: Client;
const rowsB = { cardId: "", periodId: "", invitationId: "", memberId: "", customerEmail: "" };

const PAGE = {
  name: "Boutique test",
  category: "cafe",
  address: "1 place du Test",
  city: "Lyon",
  postalCode: "69002",
  phone: "04 78 11 22 33",
  logo: null,
  cover: null,
  links: {},
};
const HOURS = { weekly: [[], [], [], [], [], [], []], closures: [] };
const CARD = {
  mode: "points",
  stampsGoal: 10,
  pointsPerVisit: 5,
  cooldownMinutes: 60,
  dailyCap: 2,
  allowStaticPoster: true,
  design: { background: "#000000", foreground: "#ffffff", accent: "#ff0000", stampIcon: "heart" },
};
const PERIOD = { label: "Happy hour", weekdays: [1], startTime: "16:00", endTime: "18:00", multiplier: 2 };

type Route = { method: "GET" | "POST" | "PUT" | "DELETE"; path: string; body?: unknown; level: "staff" | "owner" };

/** Every back-office route of a shop, with a valid body, pointing at `shopId` and at rows of shop B. */
/** Any correction id: the guards answer before the row is looked for. */
const ADJUSTMENT_ID = "00000000-0000-4000-8000-000000000000";

function routes(shopId: string): Route[] {
  const base = `/api/backoffice/shops/${shopId}`;
  return [
    { method: "GET", path: base, level: "staff" },
    { method: "GET", path: `${base}/reader`, level: "staff" },
    { method: "GET", path: `${base}/today`, level: "staff" },
    { method: "GET", path: `${base}/lookup?email=${encodeURIComponent(rowsB.customerEmail)}`, level: "staff" },
    { method: "POST", path: `${base}/credit`, body: { email: rowsB.customerEmail, idempotencyKey: newKey() }, level: "staff" },
    { method: "POST", path: `${base}/adjust`, body: { cardId: rowsB.cardId, delta: 5, reason: "Test", idempotencyKey: newKey() }, level: "staff" },
    { method: "GET", path: `${base}/adjustments`, level: "owner" },
    { method: "POST", path: `${base}/adjustments/${ADJUSTMENT_ID}/approve`, level: "owner" },
    { method: "POST", path: `${base}/adjustments/${ADJUSTMENT_ID}/refuse`, level: "owner" },
    { method: "GET", path: `${base}/dashboard`, level: "owner" },
    { method: "GET", path: `${base}/page`, level: "owner" },
    { method: "PUT", path: `${base}/page`, body: PAGE, level: "owner" },
    { method: "GET", path: `${base}/legal`, level: "owner" },
    { method: "PUT", path: `${base}/legal`, body: { legalName: "SARL Test" }, level: "owner" },
    { method: "GET", path: `${base}/hours`, level: "owner" },
    { method: "PUT", path: `${base}/hours`, body: HOURS, level: "owner" },
    { method: "GET", path: `${base}/card`, level: "owner" },
    { method: "PUT", path: `${base}/card`, body: CARD, level: "owner" },
    { method: "POST", path: `${base}/code-secret`, level: "owner" },
    { method: "GET", path: `${base}/poster.pdf`, level: "owner" },
    { method: "GET", path: `${base}/double-points`, level: "owner" },
    { method: "POST", path: `${base}/double-points`, body: PERIOD, level: "owner" },
    { method: "PUT", path: `${base}/double-points/${rowsB.periodId}`, body: PERIOD, level: "owner" },
    { method: "DELETE", path: `${base}/double-points/${rowsB.periodId}`, level: "owner" },
    { method: "GET", path: `${base}/customers`, level: "owner" },
    { method: "GET", path: `${base}/customers.csv`, level: "owner" },
    { method: "GET", path: `${base}/customers/${rowsB.cardId}`, level: "owner" },
    { method: "GET", path: `${base}/scans`, level: "owner" },
    { method: "GET", path: `${base}/scans.csv`, level: "owner" },
    { method: "GET", path: `${base}/team`, level: "owner" },
    { method: "POST", path: `${base}/invitations`, body: { email: "nouvelle-recrue@test.fidele.local" }, level: "owner" },
    { method: "DELETE", path: `${base}/invitations/${rowsB.invitationId}`, level: "owner" },
    { method: "DELETE", path: `${base}/members/${rowsB.memberId}`, level: "owner" },
  ];
}

async function call(client: Client, r: Route) {
  const res = await client.request(r.path, { method: r.method, ...(r.body !== undefined ? { json: r.body } : {}) });
  const text = await res.text();
  return { status: res.status, text };
}

beforeAll(async () => {
  t = await createTestApp();
  const a = await shopWithOwner(t, { name: "Boutique A" });
  const b = await shopWithOwner(t, { name: "Boutique B", rules: { allowStaticPoster: true } });
  shopA = a.shop;
  shopB = b.shop;
  ownerA = a.owner.client;
  const staff = await signedIn(t);
  await addStaff(t.deps, shopA.id, staff.user.id, "member");
  staffA = staff.client;
  shopper = (await signedIn(t)).client;
  admin = (await signedIn(t, { role: "admin" })).client;
  anonymous = t.client();

  // Rows of shop B: a customer with a card and a scan, a period, an invitation, a staff member.
  const customerB = await signedIn(t);
  rowsB.customerEmail = customerB.user.email;
  await scan(customerB.client, t.deps.db, shopB.id);
  const [card] = await t.deps.db.select().from(cards).where(eq(cards.shopId, shopB.id));
  rowsB.cardId = card!.id;
  const [period] = await t.deps.db.insert(doublePointsPeriods).values({ shopId: shopB.id, label: "B", multiplier: 2 }).returning();
  rowsB.periodId = period!.id;
  const invite = await b.owner.client.request(`/api/backoffice/shops/${shopB.id}/invitations`, { json: { email: "recrue-b@test.fidele.local" } });
  expect(invite.status).toBe(201);
  const [inv] = await t.deps.db.select().from(invitation).where(eq(invitation.organizationId, shopB.id));
  rowsB.invitationId = inv!.id;
  const staffB = await signedIn(t);
  await addStaff(t.deps, shopB.id, staffB.user.id, "member");
  const [m] = await t.deps.db.select().from(member).where(eq(member.userId, staffB.user.id));
  rowsB.memberId = m!.id;
});

afterAll(async () => {
  await t?.close();
});

describe("back-office isolation", () => {
  it("staff and owner of shop A get 404 on every route of shop B", async () => {
    for (const client of [ownerA, staffA]) {
      for (const r of routes(shopB.id)) {
        const { status, text } = await call(client, r);
        expect({ route: `${r.method} ${r.path}`, status }).toEqual({ route: `${r.method} ${r.path}`, status: 404 });
        expect(JSON.parse(text).code).toBe("NOT_FOUND");
      }
    }
  });

  it("the owner of shop A gets 404 for each row of shop B reached through shop A's own routes", async () => {
    const rowRoutes = routes(shopA.id).filter(
      (r) =>
        r.path.includes(rowsB.cardId) ||
        r.path.includes(rowsB.periodId) ||
        r.path.includes(rowsB.invitationId) ||
        r.path.includes(rowsB.memberId) ||
        r.path.includes("/lookup") ||
        r.path.endsWith("/adjust"),
    );
    expect(rowRoutes.length).toBe(7);
    for (const r of rowRoutes) {
      const { status } = await call(ownerA, r);
      expect({ route: `${r.method} ${r.path}`, status }).toEqual({ route: `${r.method} ${r.path}`, status: 404 });
    }
    // Lists of shop A never show shop B's customers or scans.
    const customers = await (await ownerA.request(`/api/backoffice/shops/${shopA.id}/customers`)).json();
    expect(customers.total).toBe(0);
    const scans = await (await ownerA.request(`/api/backoffice/shops/${shopA.id}/scans?cardId=${rowsB.cardId}`)).json();
    expect(scans.total).toBe(0);
    const csv = await (await ownerA.request(`/api/backoffice/shops/${shopA.id}/customers.csv`)).text();
    expect(csv).not.toContain(rowsB.customerEmail);
    // A card of shop B is not anyone else's card either.
    expect((await ownerA.request(`/api/cards/${rowsB.cardId}`)).status).toBe(404);
    expect((await staffA.request(`/api/cards/${rowsB.cardId}`)).status).toBe(404);
  });

  it("a shopper gets 403 on every back-office route, of any shop", async () => {
    for (const shopId of [shopA.id, shopB.id]) {
      for (const r of routes(shopId)) {
        const { status } = await call(shopper, r);
        expect({ route: `${r.method} ${r.path}`, status }).toEqual({ route: `${r.method} ${r.path}`, status: 403 });
      }
    }
    expect((await shopper.request("/api/backoffice/platform/shops")).status).toBe(403);
  });

  it("a staff member gets 403 on the owner's routes of their own shop", async () => {
    for (const r of routes(shopA.id).filter((x) => x.level === "owner")) {
      const { status } = await call(staffA, r);
      expect({ route: `${r.method} ${r.path}`, status }).toEqual({ route: `${r.method} ${r.path}`, status: 403 });
    }
    expect((await staffA.request(`/api/backoffice/shops/${shopA.id}/reader`)).status).toBe(200);
    expect((await staffA.request(`/api/backoffice/shops/${shopA.id}/today`)).status).toBe(200);
  });

  it("signed out gets 401 everywhere", async () => {
    for (const r of routes(shopA.id)) {
      const { status } = await call(anonymous, r);
      expect({ route: `${r.method} ${r.path}`, status }).toEqual({ route: `${r.method} ${r.path}`, status: 401 });
    }
  });

  it("the platform admin reaches any shop's back-office", async () => {
    expect((await admin.request(`/api/backoffice/shops/${shopB.id}/dashboard`)).status).toBe(200);
    const customers = await (await admin.request(`/api/backoffice/shops/${shopB.id}/customers`)).json();
    expect(customers.total).toBe(1);
    expect((await admin.request(`/api/backoffice/shops/${shopB.id}/customers/${rowsB.cardId}`)).status).toBe(200);
    expect((await admin.request("/api/backoffice/shops/unknown-shop-id/dashboard")).status).toBe(404);
  });
});
