import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff, createReward } from "../../src/server/db/factories.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { type Client, scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

/**
 * Issue 16's acceptance matrix: every page of the issue, through the API it reads, as anonymous, a shopper, staff
 * of another shop, the shop's owner and the platform admin — each gets only what is theirs. (The pages' own guards
 * are the route table's, tests/e2e/shell-routes.test.ts; a page shows what its API answers.)
 */

let t: TestApp;
type Who = "anonymous" | "shopper" | "otherStaff" | "owner" | "admin";
const clients = {} as Record<Who, Client>;
const ids = { shopId: "", otherShopId: "", customerId: "", rewardSlug: "", strangerId: "" };

beforeAll(async () => {
  t = await createTestApp();
  const a = await shopWithOwner(t, { name: `Boulangerie ${randomUUID().slice(0, 6)}` });
  const b = await shopWithOwner(t);
  const staffB = await signedIn(t);
  await addStaff(t.deps, b.shop.id, staffB.user.id, "member");
  const customer = await signedIn(t, { firstName: "Inès", lastName: "Barthélemy" });
  expect((await scan(customer.client, t.deps.db, a.shop.id)).body.accepted).toBe(true);
  const shopper = await signedIn(t);
  const admin = await signedIn(t, { role: "admin" });
  const reward = await createReward(t.deps, { shopId: a.shop.id, title: "Café offert" });
  Object.assign(clients, {
    anonymous: t.client(),
    shopper: shopper.client,
    otherStaff: staffB.client,
    owner: a.owner.client,
    admin: admin.client,
  });
  Object.assign(ids, {
    shopId: a.shop.id,
    otherShopId: b.shop.id,
    customerId: customer.user.id,
    rewardSlug: reward.slug,
    strangerId: shopper.user.id,
  });
});
afterAll(async () => {
  await t.close();
});

type Row = { page: string; api: () => string; expect: Record<Who, number> };
const ADMIN_ONLY = { anonymous: 401, shopper: 403, otherStaff: 403, owner: 403, admin: 200 };
const SIGNED_IN = { anonymous: 401, shopper: 200, otherStaff: 200, owner: 200, admin: 200 };

const MATRIX: Row[] = [
  { page: "/admin (platform)", api: () => "/api/admin/overview", expect: ADMIN_ONLY },
  { page: "/admin (shops)", api: () => "/api/backoffice/platform/shops", expect: ADMIN_ONLY },
  { page: "/admin (users)", api: () => "/api/admin/users", expect: ADMIN_ONLY },
  { page: "/admin (outbox)", api: () => "/api/admin/outbox", expect: ADMIN_ONLY },
  { page: "/admin/logs", api: () => "/api/admin/logs", expect: ADMIN_ONLY },
  { page: "/admin/logs (CSV)", api: () => "/api/admin/logs.csv", expect: ADMIN_ONLY },
  {
    page: "/admin/connected",
    api: () => "/api/admin/connected",
    expect: { anonymous: 401, shopper: 403, otherStaff: 403, owner: 200, admin: 200 },
  },
  { page: "/admin/sessions", api: () => "/api/admin/sessions", expect: SIGNED_IN },
  {
    page: "/admin/liste-totale-clients",
    api: () => "/api/backoffice/customers",
    expect: { anonymous: 401, shopper: 403, otherStaff: 403, owner: 200, admin: 200 },
  },
  {
    page: "/admin/liste-totale-clients (CSV)",
    api: () => "/api/backoffice/customers/export.csv",
    expect: { anonymous: 401, shopper: 403, otherStaff: 403, owner: 200, admin: 200 },
  },
  {
    page: "/admin/monprofil",
    api: () => "/api/accounts/me",
    expect: { anonymous: 200, shopper: 200, otherStaff: 200, owner: 200, admin: 200 },
  },
  {
    page: "/admin/{product}",
    api: () => `/api/backoffice/shops/${ids.shopId}/products/${ids.rewardSlug}`,
    expect: { anonymous: 401, shopper: 403, otherStaff: 404, owner: 200, admin: 200 },
  },
  {
    page: "/profile/{id} (a customer of the shop)",
    api: () => `/api/profiles/${ids.customerId}`,
    expect: { anonymous: 401, shopper: 404, otherStaff: 404, owner: 200, admin: 404 },
  },
  { page: "/profil « Mes données »", api: () => "/api/accounts/me/export", expect: SIGNED_IN },
  { page: "/profil consents", api: () => "/api/accounts/me/consents", expect: SIGNED_IN },
  {
    page: "/admin/edit-societe « Fermer ma boutique » (export)",
    api: () => `/api/backoffice/shops/${ids.shopId}/export`,
    expect: { anonymous: 401, shopper: 403, otherStaff: 404, owner: 200, admin: 403 },
  },
];

describe("issue 16: every page × every role", () => {
  for (const row of MATRIX) {
    it(`${row.page}`, async () => {
      const got = {} as Record<Who, number>;
      for (const who of Object.keys(clients) as Who[]) got[who] = (await clients[who].request(row.api())).status;
      expect(got).toEqual(row.expect);
    });
  }

  it("each sees only their part: an owner's customers are their shops' only; anonymous /me is null", async () => {
    const owner = await (await clients.owner.request("/api/backoffice/customers")).json();
    const listed = JSON.stringify(owner);
    expect(listed).toContain(ids.customerId);
    expect(listed).not.toContain(ids.strangerId);
    const otherOwnerless = await (await clients.anonymous.request("/api/accounts/me")).json();
    expect(otherOwnerless).toEqual({ me: null });
    const sessions = (await (await clients.shopper.request("/api/admin/sessions")).json()).sessions as {
      user: { id: string };
    }[];
    expect(sessions.every((s) => s.user.id === ids.strangerId)).toBe(true);
  });

  it("/profile/{id} of a stranger is the same 404, byte for byte, as an unknown id", async () => {
    const stranger = await clients.owner.request(`/api/profiles/${ids.strangerId}`);
    const unknown = await clients.owner.request(`/api/profiles/${randomUUID()}`);
    expect(stranger.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(await stranger.text()).toBe(await unknown.text());
    // Every answer carries its own request id (ADR 0038); everything else must be the same.
    expect([...stranger.headers.entries()].filter(([k]) => k !== "date" && k !== "x-request-id")).toEqual(
      [...unknown.headers.entries()].filter(([k]) => k !== "date" && k !== "x-request-id"),
    );
  });
});
