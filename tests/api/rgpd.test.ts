import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReward } from "../../src/server/db/factories.ts";
import { consents, profiles, shopReviews } from "../../src/server/db/schema/index.ts";
import { findLedgerMismatches } from "../../src/server/modules/cards/cards.service.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { newKey, scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

/** Issue 16, item 9: RGPD by itself — the archive of everything about me, and erasing my account. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** From the catalogue: every (table, column) of the public schema that points at a user — FKs to "user"(id), and user_id. */
async function userReferences(): Promise<{ table: string; column: string }[]> {
  const result = await t.deps.db.execute<{ table: string; column: string }>(sql`
    select cl.relname as "table", a.attname as "column"
    from pg_constraint con
    join pg_class cl on cl.oid = con.conrelid
    join pg_namespace n on n.oid = cl.relnamespace
    join pg_attribute a on a.attrelid = con.conrelid and a.attnum = any (con.conkey)
    where con.contype = 'f' and con.confrelid = '"user"'::regclass and n.nspname = 'public'
    union
    select table_name, column_name from information_schema.columns
    where table_schema = 'public' and column_name = 'user_id'
    order by 1, 2`);
  return result.rows;
}

/** A shopper with a password, a profile, a card, a scan, a pending redemption, a review and consents. */
async function busyShopper() {
  const { shop, owner } = await shopWithOwner(t, {
    rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 20 },
  });
  const firstName = `Zoé${randomUUID().slice(0, 6)}`;
  const lastName = `Quenneville${randomUUID().slice(0, 6)}`;
  const password = "un-mot-de-passe-solide";
  const birthday = `19${10 + Math.floor(Math.random() * 89)}-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 10)}`;
  const user = await t.createUser({ firstName, lastName, password });
  const phone = `+3361${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
  await t.deps.db.update(profiles).set({ birthday, postalCode: "75011", phone }).where(eq(profiles.id, user.id));
  // What the sending kept about them: an SMS to their number, their unsubscribe from a newsletter.
  await t.deps.db.execute(sql`
    insert into sms_outbox ("to", text, kind, provider, status, segments)
    values (${phone}, 'Double points ce samedi !', 'campaign', 'outbox', 'kept', 1)`);
  await t.deps.db.execute(sql`insert into email_events (email, kind) values (${user.email.toLowerCase()}, 'unsubscribe')`);
  const client = t.client();
  await client.signIn(user.email, password);
  await t.deps.db.insert(consents).values([
    { userId: user.id, channel: "email", granted: true, wording: "J'accepte les e-mails de mes boutiques." },
    { userId: user.id, channel: "email", granted: false, wording: "Je refuse les e-mails de mes boutiques." },
  ]);
  for (let i = 0; i < 2; i++) expect((await scan(client, t.deps.db, shop.id)).body.accepted).toBe(true);
  expect((await client.request("/api/cards/personal-code")).status).toBe(200);
  await t.deps.db.insert(shopReviews).values({ shopId: shop.id, userId: user.id, rating: 5 } as never);
  const reward = await createReward(t.deps, { shopId: shop.id, title: "Croissant offert", cost: 5 });
  const redeemed = await client.request(`/api/rewards/${reward.slug}/redeem`, { json: { idempotencyKey: newKey() } });
  expect(redeemed.status).toBe(201);
  return { shop, owner, user, client, password, firstName, lastName, birthday, phone };
}

async function shopBalances(shopId: string) {
  const result = await t.deps.db.execute<{ total: number; ledger: number }>(sql`
    select coalesce((select sum(balance) from cards where shop_id = ${shopId}), 0)::int as total,
           coalesce((select sum(delta) from ledger_entries where shop_id = ${shopId}), 0)::int as ledger`);
  return result.rows[0] as { total: number; ledger: number };
}

describe("« Mes données »: everything about me in one archive", () => {
  it("the zip holds JSON and one CSV per table, covering every table that references a user", async () => {
    const { user, client, birthday, phone } = await busyShopper();
    const res = await client.request("/api/accounts/me/export");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="fidele-mes-donnees-.*\.zip"/);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const data = JSON.parse(strFromU8(files["donnees.json"] as Uint8Array)) as {
      tables: Record<string, Record<string, unknown>[]>;
    };

    // The catalogue decides what "about me" means: each table pointing at a user is in the archive, with every row.
    const references = await userReferences();
    expect(references.length).toBeGreaterThan(10);
    for (const { table, column } of references) {
      expect(data.tables, `table ${table} is missing from the export`).toHaveProperty(table);
      const count = await t.deps.db.execute<{ n: number }>(
        sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)} = ${user.id}`,
      );
      const exported = (data.tables[table] ?? []).filter((row) => row[column] === user.id).length;
      expect(exported, `${table}.${column}`).toBe(count.rows[0]?.n);
      expect(files[`csv/${table}.csv`], `csv/${table}.csv`).toBeDefined();
    }
    // Rows without a user column but about me: the ledger of my cards.
    expect(data.tables.ledger_entries?.length).toBeGreaterThanOrEqual(3);
    expect(data.tables.user?.[0]?.email).toBe(user.email);
    expect(data.tables.profiles?.[0]?.birthday).toBe(birthday);
    expect(data.tables.consents).toHaveLength(2);
    expect(data.tables.redemptions?.[0]?.status).toBe("pending");
    // Sent to me, found by my number and my address.
    expect(data.tables.sms_outbox?.map((r) => r.to)).toEqual([phone]);
    expect(data.tables.email_events?.map((r) => r.kind)).toEqual(["unsubscribe"]);
    // Secrets are not personal data to hand out.
    expect(JSON.stringify(data)).not.toMatch(/"password"|"token"|"secret"|"backup_codes"/);
    const csv = strFromU8(files["csv/cards.csv"] as Uint8Array);
    expect(csv.split("\r\n")[0]).toContain("balance");
  });

  it("is for the signed-in person only", async () => {
    const res = await t.client().request("/api/accounts/me/export");
    expect(res.status).toBe(401);
  });

  it("shows the consent history, newest first", async () => {
    const { client } = await busyShopper();
    const res = await client.request("/api/accounts/me/consents");
    expect(res.status).toBe(200);
    const { consents: rows } = (await res.json()) as { consents: { granted: boolean; wording: string }[] };
    expect(rows).toHaveLength(2);
  });
});

describe("« Supprimer mon compte »", () => {
  it("a wrong password erases nothing, in French", async () => {
    const { user, client } = await busyShopper();
    const res = await client.request("/api/accounts/me", { method: "DELETE", json: { password: "pas-le-bon" } });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/Mot de passe incorrect/);
    const still = await t.deps.db.execute(sql`select 1 from "user" where id = ${user.id}`);
    expect(still.rows).toHaveLength(1);
  });

  it("erases every personal field at once, refunds pending redemptions, keeps the shop's totals true", async () => {
    const { shop, user, client, password, firstName, lastName, birthday, phone } = await busyShopper();
    const before = await shopBalances(shop.id);
    const [pending] = (
      await t.deps.db.execute<{ cost: number }>(
        sql`select coalesce(sum(cost), 0)::int as cost from redemptions where user_id = ${user.id} and status = 'pending'`,
      )
    ).rows;
    expect(pending?.cost).toBe(5);
    const ledgerRowsBefore = (
      await t.deps.db.execute<{ n: number }>(
        sql`select count(*)::int as n from ledger_entries where shop_id = ${shop.id}`,
      )
    ).rows[0]?.n as number;

    const res = await client.request("/api/accounts/me", { method: "DELETE", json: { password } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, cancelledRedemptions: 1 });

    // The session is gone with the account.
    expect((await client.request("/api/accounts/me").then((r) => r.json())) as unknown).toEqual({ me: null });

    // No personal field remains, in any column of any table.
    const needles = [user.email, firstName, lastName, birthday, phone, user.id];
    const columns = await t.deps.db.execute<{ table: string; column: string }>(sql`
      select table_name as "table", column_name as "column" from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json', 'date', 'ARRAY')`);
    const found: string[] = [];
    for (const { table, column } of columns.rows) {
      // The append-only ledger and the scan log keep who acted as a bare id with nothing left to resolve it.
      if (column === "actor_id" || column === "decided_by") continue;
      for (const needle of needles) {
        // The audit log, append-only, keeps on whom an action was done as the same bare id (its address is wiped).
        if (table === "audit_log" && column === "target" && needle === user.id) continue;
        const hit = await t.deps.db.execute(
          sql`select 1 from ${sql.identifier(table)} where ${sql.identifier(column)}::text ilike ${`%${needle}%`} limit 1`,
        );
        if (hit.rows.length > 0) found.push(`${table}.${column} ∋ ${needle === user.id ? "id" : needle}`);
      }
    }
    expect(found).toEqual([]);

    // Points: the pending redemption came back (a refund row), nothing else moved; cards and ledger agree.
    const after = await shopBalances(shop.id);
    expect(after.total).toBe(before.total + (pending?.cost ?? 0));
    expect(after.total).toBe(after.ledger);
    const ledgerRowsAfter = (
      await t.deps.db.execute<{ n: number }>(
        sql`select count(*)::int as n from ledger_entries where shop_id = ${shop.id}`,
      )
    ).rows[0]?.n as number;
    expect(ledgerRowsAfter).toBe(ledgerRowsBefore + 1);
    expect(await findLedgerMismatches(t.deps.db)).toEqual([]);

    // The deletion is logged; the person's rows of the log lost their address.
    const log = await t.deps.db.execute<{ action: string; ip: string | null }>(
      sql`select action, ip from audit_log where actor_id = ${user.id} or target = ${user.id} order by created_at`,
    );
    expect(log.rows.at(-1)).toEqual({ action: "account.delete", ip: null });
    expect(log.rows.every((r) => r.ip === null)).toBe(true);
  });

  it("without a password: a code sent by e-mail (to the outbox) confirms it, once, and a wrong one erases nothing", async () => {
    const { user, client } = await signedIn(t);
    const wrongFirst = await client.request("/api/accounts/me", { method: "DELETE", json: { code: "000000" } });
    expect(wrongFirst.status).toBe(400);
    expect((await wrongFirst.json()).message).toMatch(/Code incorrect ou expiré/);

    const sent = await client.request("/api/accounts/me/erase-code", { method: "POST" });
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({ ok: true, sentTo: user.email, minutes: 15 });
    // One a minute at most.
    expect((await client.request("/api/accounts/me/erase-code", { method: "POST" })).status).toBe(429);
    const [mail] = (
      await t.deps.db.execute<{ text: string; kind: string }>(
        sql`select text, kind from mail_outbox where "to" = ${user.email} order by created_at desc limit 1`,
      )
    ).rows;
    expect(mail?.kind).toBe("erase-code");
    const code = /\b(\d{6})\b/.exec(mail?.text ?? "")?.[1];
    expect(code).toMatch(/^\d{6}$/);
    // The code is stored hashed, never as sent.
    const stored = await t.deps.db.execute(sql`select 1 from verification where value = ${code}`);
    expect(stored.rows).toHaveLength(0);

    const wrong = await client.request("/api/accounts/me", {
      method: "DELETE",
      json: { code: code === "123456" ? "654321" : "123456" },
    });
    expect(wrong.status).toBe(400);
    expect((await t.deps.db.execute(sql`select 1 from "user" where id = ${user.id}`)).rows).toHaveLength(1);

    const ok = await client.request("/api/accounts/me", { method: "DELETE", json: { code } });
    expect(ok.status).toBe(200);
    expect((await t.deps.db.execute(sql`select 1 from "user" where id = ${user.id}`)).rows).toHaveLength(0);
    expect((await t.deps.db.execute(sql`select 1 from verification where identifier = ${`erase:${user.id}`}`)).rows).toHaveLength(0);
  });

  it("an expired code is refused", async () => {
    const { user, client } = await signedIn(t);
    expect((await client.request("/api/accounts/me/erase-code", { method: "POST" })).status).toBe(200);
    const [mail] = (
      await t.deps.db.execute<{ text: string }>(sql`select text from mail_outbox where "to" = ${user.email} order by created_at desc limit 1`)
    ).rows;
    const code = /\b(\d{6})\b/.exec(mail?.text ?? "")?.[1];
    await t.deps.db.execute(
      sql`update verification set expires_at = now() - interval '1 second' where identifier = ${`erase:${user.id}`}`,
    );
    const res = await client.request("/api/accounts/me", { method: "DELETE", json: { code } });
    expect(res.status).toBe(400);
    expect((await t.deps.db.execute(sql`select 1 from "user" where id = ${user.id}`)).rows).toHaveLength(1);
  });

  it("a shop's owner is told to hand over their shop first", async () => {
    const owner = await t.createUser({ password: "un-mot-de-passe-solide" });
    await t.createShop(owner.id);
    const client = t.client();
    await client.signIn(owner.email, owner.password);
    const res = await client.request("/api/accounts/me", {
      method: "DELETE",
      json: { password: owner.password },
    });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toMatch(/propriétaire d'une boutique/);
  });

  it("needs a signed-in person and a password", async () => {
    expect((await t.client().request("/api/accounts/me", { method: "DELETE", json: { password: "x" } })).status).toBe(
      401,
    );
    const { client } = await signedIn(t);
    const res = await client.request("/api/accounts/me", { method: "DELETE", json: {} });
    expect(res.status).toBe(400);
  });
});
