import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff, createReward } from "../../src/server/db/factories.ts";
import { findLedgerMismatches } from "../setup/ledger.ts";
import { SHOP_EXPORT_EXCLUDED } from "../../src/server/modules/shops/shop-closure.service.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { newKey, scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

/** Issue 16, item 9: an owner exports, then deletes, their shop; the ledger and every total stay true. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function busyShop() {
  const name = `Épicerie ${randomUUID().slice(0, 6)}`;
  const a = await shopWithOwner(t, { name, rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 20 } });
  const customer = await signedIn(t, { firstName: "Inès", lastName: "Barthélemy" });
  for (let i = 0; i < 2; i++) expect((await scan(customer.client, t.deps.db, a.shop.id)).body.accepted).toBe(true);
  const reward = await createReward(t.deps, { shopId: a.shop.id, title: "Café offert", cost: 5 });
  const redeemed = await customer.client.request(`/api/rewards/${reward.slug}/redeem`, { json: { idempotencyKey: newKey() } });
  expect(redeemed.status).toBe(201);
  const staff = await signedIn(t);
  await addStaff(t.deps, a.shop.id, staff.user.id, "admin");
  return { ...a, name, customer, staff, reward };
}

const totals = async (shopId: string) =>
  (
    await t.deps.db.execute<{ balance: number; ledger: number; scans: number; cards: number }>(sql`
      select coalesce((select sum(balance) from cards where shop_id = ${shopId}), 0)::int as balance,
             coalesce((select sum(delta) from ledger_entries where shop_id = ${shopId}), 0)::int as ledger,
             (select count(*)::int from scans where shop_id = ${shopId}) as scans,
             (select count(*)::int from cards where shop_id = ${shopId}) as cards`)
  ).rows[0]!;

describe("an owner closes their shop", () => {
  it("the export holds every table with a shop column, the customers, and no secret", async () => {
    const { shop, owner, customer } = await busyShop();
    const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const data = JSON.parse(strFromU8(files["donnees.json"] as Uint8Array)) as { tables: Record<string, Record<string, unknown>[]> };
    const tables = await t.deps.db.execute<{ table: string }>(sql`
      select distinct c.table_name as "table" from information_schema.columns c
      join information_schema.tables tb on tb.table_name = c.table_name and tb.table_schema = c.table_schema
      where c.table_schema = 'public' and c.column_name = 'shop_id' and tb.table_type = 'BASE TABLE'`);
    expect(tables.rows.length).toBeGreaterThan(10);
    for (const { table } of tables.rows) {
      expect(data.tables, `table ${table} is missing from the export`).toHaveProperty(table);
      const n = await t.deps.db.execute<{ n: number }>(
        sql`select count(*)::int as n from ${sql.identifier(table)} where shop_id = ${shop.id}`,
      );
      // The log gained one row after the archive was made: its own `export.shop`.
      expect(data.tables[table]?.length, table).toBe((n.rows[0]?.n ?? 0) - (table === "audit_log" ? 1 : 0));
      expect(files[`csv/${table}.csv`]).toBeDefined();
    }
    expect(data.tables.member?.length).toBe(2);
    expect(data.tables.clients).toEqual([expect.objectContaining({ email: customer.user.email, first_name: "Inès" })]);
    expect(JSON.stringify(data)).not.toMatch(/code_secret|"ip"/);
  });

  it("issue 22 row 6: the export follows foreign keys from the shop — every reachable table, with every row", async () => {
    const { shop, owner, customer } = await busyShop();
    // Rows with no shop column, reached through their contest or message: 2 entries, 1 prize, 1 règlement, 2 deliveries.
    const db = t.deps.db;
    const [contest] = (
      await db.execute<{ id: string }>(sql`
        insert into contests (shop_id, kind, title, starts_at, ends_at)
        values (${shop.id}, 'draw', 'Grand tirage', now(), now() + interval '7 days') returning id`)
    ).rows;
    const [lot] = (
      await db.execute<{ id: string }>(sql`
        insert into prize_lots (shop_id, name, value_cents, quantity, remaining, handover, claim_days)
        values (${shop.id}, 'Panier garni', 3000, 1, 1, 'counter', 30) returning id`)
    ).rows;
    await db.execute(
      sql`insert into contest_prizes (contest_id, lot_id, position) values (${contest!.id}, ${lot!.id}, 1)`,
    );
    await db.execute(
      sql`insert into contest_rules (contest_id, version, document) values (${contest!.id}, 1, '{"articles":[]}')`,
    );
    await db.execute(sql`
      insert into contest_entries (contest_id, period, user_id)
      values (${contest!.id}, 'all', ${customer.user.id}), (${contest!.id}, 'all', null)`);
    const [message] = (
      await db.execute<{ id: string }>(sql`
        insert into messages (shop_id, audience, title, body, status)
        values (${shop.id}, 'all', 'Double points samedi', 'Venez !', 'sent') returning id`)
    ).rows;
    await db.execute(sql`
      insert into message_deliveries (message_id, user_id, channel)
      values (${message!.id}, ${customer.user.id}, 'inapp'), (${message!.id}, ${customer.user.id}, 'email')`);
    // Another shop's rows of the same tables stay out.
    const other = await shopWithOwner(t);
    await db.execute(sql`
      insert into contests (shop_id, kind, title, starts_at, ends_at)
      values (${other.shop.id}, 'draw', 'Autre tirage', now(), now() + interval '7 days')`);

    const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/export`);
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const data = JSON.parse(strFromU8(files["donnees.json"] as Uint8Array)) as {
      tables: Record<string, Record<string, unknown>[]>;
    };
    expect(data.tables.contest_entries).toHaveLength(2);
    expect(data.tables.contest_prizes).toHaveLength(1);
    expect(data.tables.contest_rules).toHaveLength(1);
    expect(data.tables.message_deliveries).toHaveLength(2);
    expect(data.tables.contests?.map((c) => c.title)).toEqual(["Grand tirage"]);

    // The catalogue, walked here on its own: every table reachable from the shop by foreign keys (child → parent)
    // is in the export, or excluded with a reason. A new table someone forgets fails here.
    const reachable = await db.execute<{ table: string }>(sql`
      with recursive fk as (
        select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent from pg_constraint c
        where c.contype = 'f' and c.connamespace = 'public'::regnamespace
      ), walk(t) as (
        select 'shops' union select 'organization'
        union select table_name::text from information_schema.columns where table_schema = 'public' and column_name = 'shop_id'
        union select fk.child from fk join walk on fk.parent = walk.t
      )
      select distinct trim(both '"' from t) as "table" from walk
      where trim(both '"' from t) in (select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE')
      order by 1`);
    const missing = reachable.rows
      .map((r) => r.table)
      .filter((table) => !(table in data.tables) && !(table in SHOP_EXPORT_EXCLUDED));
    expect(missing).toEqual([]);
    expect(reachable.rows.length).toBeGreaterThan(25);
  });

  it("deletion needs the owner, the shop's name, and a fresh export; then the shop is closed, its totals unchanged", async () => {
    const { shop, owner, name, staff, customer } = await busyShop();
    // A manager (shop admin) cannot; neither can another shop's owner.
    const asStaff = await staff.client.request(`/api/backoffice/shops/${shop.id}`, { method: "DELETE", json: { name } });
    expect(asStaff.status).toBe(403);
    const other = await shopWithOwner(t);
    expect(
      (await other.owner.client.request(`/api/backoffice/shops/${shop.id}`, { method: "DELETE", json: { name } })).status,
    ).toBe(404);
    // Export first.
    const early = await owner.client.request(`/api/backoffice/shops/${shop.id}`, { method: "DELETE", json: { name } });
    expect(early.status).toBe(409);
    expect((await early.json()).message).toMatch(/Téléchargez d'abord l'export/);
    expect((await owner.client.request(`/api/backoffice/shops/${shop.id}/export`)).status).toBe(200);
    // The name, typed.
    const wrong = await owner.client.request(`/api/backoffice/shops/${shop.id}`, { method: "DELETE", json: { name: "Autre" } });
    expect(wrong.status).toBe(400);

    const before = await totals(shop.id);
    const res = await owner.client.request(`/api/backoffice/shops/${shop.id}`, {
      method: "DELETE",
      json: { name: ` ${name.toUpperCase()} ` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, refundedRedemptions: 1 });

    // Ledger and figures: the pending redemption came back to the card, nothing else moved.
    const after = await totals(shop.id);
    expect(after).toEqual({ ...before, balance: before.balance + 5, ledger: before.ledger + 5 });
    expect(after.balance).toBe(after.ledger);
    expect(await findLedgerMismatches(t.deps.db, shop.id)).toEqual([]);

    // Closed: no team, its page gone, its codes refused, its details wiped; logged.
    const [row] = (
      await t.deps.db.execute<{ status: string; deleted_at: unknown; phone: string; legal: unknown }>(
        sql`select status, deleted_at, phone, legal from shops where id = ${shop.id}`,
      )
    ).rows;
    expect(row).toMatchObject({ status: "suspended", phone: "", legal: null });
    expect(row?.deleted_at).not.toBeNull();
    expect((await t.deps.db.execute(sql`select 1 from member where organization_id = ${shop.id}`)).rows).toHaveLength(0);
    expect((await t.client().request(`/api/shops/${shop.slug}`)).status).toBe(404);
    expect((await scan(customer.client, t.deps.db, shop.id)).body.accepted).toBe(false);
    // The former owner is nobody's team any more: the back-office is closed to them (403), the shop's too.
    expect((await owner.client.request(`/api/backoffice/shops/${shop.id}/export`)).status).toBe(403);
    const log = await t.deps.db.execute<{ action: string; actor_id: string }>(
      sql`select action, actor_id from audit_log where shop_id = ${shop.id} and action in ('export.shop', 'shop.delete') order by created_at`,
    );
    expect(log.rows).toEqual([
      { action: "export.shop", actor_id: owner.user.id },
      { action: "shop.delete", actor_id: owner.user.id },
    ]);
    // The platform admin cannot bring it back.
    const admin = await signedIn(t, { role: "admin" });
    const back = await admin.client.request(`/api/backoffice/platform/shops/${shop.id}/reactivate`, { method: "POST" });
    expect(back.status).toBe(409);
    expect((await back.json()).message).toMatch(/supprimée par son propriétaire/);
    // The former owner may now delete their own account.
    const erase = await owner.client.request("/api/accounts/me/erase-code", { method: "POST" });
    expect(erase.status).toBe(200);
  });
});
