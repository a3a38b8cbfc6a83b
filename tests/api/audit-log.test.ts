import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { addStaff } from "../../src/server/db/factories.ts";
import { openServerDatabase } from "../../src/server/db/migrate.ts";
import { parseEnv } from "../../src/server/env.ts";
import { recordAudit } from "../../src/server/lib/audit.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { createScratchDatabase } from "../setup/scratch-db.ts";
import { dropAppRole, openAppRoleDatabase } from "../setup/test-db.ts";
import { shopWithOwner, signedIn } from "./shops-helpers.ts";

/** Issue 16, item 2: the audit log is append-only in the database, and every privileged action writes it. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const logOf = async (shopId: string, action: string) =>
  (
    await t.deps.db.execute<{
      actor_id: string | null;
      target: string | null;
      details: Record<string, unknown> | null;
    }>(
      sql`select actor_id, target, details from audit_log where shop_id = ${shopId} and action = ${action} order by created_at`,
    )
  ).rows;

/** The database's own refusal (drizzle wraps it: the trigger's message is the cause's). */
const refused = (work: Promise<unknown>) =>
  expect(
    work.then(
      () => "accepted",
      (e: Error & { cause?: Error }) => e.cause?.message ?? e.message,
    ),
  ).resolves.toMatch(/audit_log is append-only/);

/** A person with an address, a phone and a full name, as erasure finds them (fidele_person_needles). */
async function person() {
  const tag = randomUUID().slice(0, 8);
  const user = await t.createUser({ firstName: `Léonie${tag}`, lastName: `Bertrand${tag}` });
  const phone = `+3362${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
  await t.deps.db.execute(sql`update profiles set phone = ${phone} where id = ${user.id}`);
  return { ...user, phone, fullName: `${user.firstName} ${user.lastName}` };
}

/** A card of a new shop with one ledger entry whose reason is given (a correction typed by the owner). */
async function ledgerReason(reason: string) {
  const { shop } = await shopWithOwner(t);
  const cardId = randomUUID();
  await t.deps.db.execute(sql`insert into cards (id, shop_id, user_id) values (${cardId}, ${shop.id}, null)`);
  await t.deps.db.execute(
    sql`insert into ledger_entries (card_id, shop_id, kind, delta, reason) values (${cardId}, ${shop.id}, 'bonus', 1, ${reason})`,
  );
  return cardId;
}

const auditRow = async (target: string) =>
  (
    await t.deps.db.execute<{
      action: string;
      actor_id: string | null;
      target: string | null;
      ip: string | null;
      details: unknown;
    }>(sql`select action, actor_id, target, ip, details from audit_log where id = ${target}`)
  ).rows[0];

async function audit(entry: Parameters<typeof recordAudit>[1]) {
  const [row] = (
    await t.deps.db.execute<{ id: string }>(sql`
      insert into audit_log (actor_id, shop_id, action, target, details, ip)
      values (${entry.actorId}, ${entry.shopId ?? null}, ${entry.action}, ${entry.target ?? null},
              ${entry.details ? JSON.stringify(entry.details) : null}::jsonb, ${entry.ip ?? null})
      returning id`)
  ).rows;
  return row!.id;
}

describe("audit log", () => {
  it("cannot be updated, deleted or truncated through the application's statements", async () => {
    const target = randomUUID();
    await recordAudit(t.deps.db, { actorId: null, action: "user.ban", target, ip: "203.0.113.9" });
    await refused(t.deps.db.execute(sql`update audit_log set action = 'user.unban' where target = ${target}`));
    await refused(t.deps.db.execute(sql`update audit_log set ip = null where target = ${target}`));
    await refused(t.deps.db.execute(sql`delete from audit_log where target = ${target}`));
    await refused(t.deps.db.execute(sql`truncate audit_log`));
    const rows = await t.deps.db.execute(sql`select action, ip from audit_log where target = ${target}`);
    expect(rows.rows).toEqual([{ action: "user.ban", ip: "203.0.113.9" }]);
  });

  it("issue 22 row 4: the erasure setting lets through one person's redaction of a row, nothing else", async () => {
    const leonie = await person();
    const admin = await person();
    const hers = await audit({ actorId: leonie.id, action: "export.personal", ip: "203.0.113.10" });
    const onHer = await audit({
      actorId: admin.id,
      action: "user.ban",
      target: leonie.email,
      details: { note: `banni : ${leonie.email}, ${admin.email}` },
      ip: "203.0.113.11",
    });
    // The old way (any value switched the exception on) no longer opens anything.
    await refused(
      t.deps.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('fidele.audit_erasure', 'on', true)`);
        await tx.execute(sql`update audit_log set ip = null where id = ${hers}`);
      }),
    );
    // Naming a person: changing anything but their redaction is refused, another person's IP included.
    for (const change of [
      sql`update audit_log set ip = null, action = 'user.unban' where id = ${hers}`,
      sql`update audit_log set ip = null where id = ${onHer}`,
      sql`update audit_log set target = 'someone-else' where id = ${onHer}`,
      sql`update audit_log set details = '{}'::jsonb where id = ${onHer}`,
      sql`delete from audit_log where id = ${hers}`,
    ]) {
      await refused(
        t.deps.db.transaction(async (tx) => {
          await tx.execute(sql`select set_config('fidele.erasing_user', ${leonie.id}, true)`);
          await tx.execute(change);
        }),
      );
    }
    expect(await auditRow(hers)).toMatchObject({ ip: "203.0.113.10" });
  });

  it("issue 22 row 4: fidele_erase_person_traces blanks only one person's address, phone, name and IP", async () => {
    const leonie = await person();
    const admin = await person();
    const hers = await audit({ actorId: leonie.id, action: "export.personal", ip: "203.0.113.20" });
    const onHer = await audit({
      actorId: admin.id,
      action: "points.adjust",
      target: leonie.id,
      details: { reason: `Pour ${leonie.fullName} (${leonie.email}, ${leonie.phone}) — vu par ${admin.email}` },
      ip: "203.0.113.21",
    });
    const byEmail = await audit({ actorId: admin.id, action: "member.invite", target: leonie.email.toUpperCase() });
    const others = await audit({ actorId: admin.id, action: "user.ban", target: admin.email, ip: "203.0.113.22" });
    const card = await ledgerReason(`Geste commercial pour ${leonie.email}`);
    const otherCard = await ledgerReason(`Geste commercial pour ${admin.email}`);

    await t.deps.db.execute(sql`select fidele_erase_person_traces(${leonie.id})`);

    expect(await auditRow(hers)).toMatchObject({ action: "export.personal", actor_id: leonie.id, ip: null });
    expect(await auditRow(onHer)).toEqual({
      action: "points.adjust",
      actor_id: admin.id,
      target: leonie.id,
      ip: "203.0.113.21",
      details: { reason: `Pour [effacé] ([effacé], [effacé]) — vu par ${admin.email}` },
    });
    expect(await auditRow(byEmail)).toMatchObject({ target: null });
    expect(await auditRow(others)).toMatchObject({ target: admin.email, ip: "203.0.113.22" });
    const reasons = await t.deps.db.execute<{ card_id: string; reason: string }>(
      sql`select card_id, reason from ledger_entries where card_id in (${card}, ${otherCard})`,
    );
    expect(Object.fromEntries(reasons.rows.map((r) => [r.card_id, r.reason]))).toEqual({
      [card]: "Geste commercial pour [effacé]",
      [otherCard]: `Geste commercial pour ${admin.email}`,
    });
    // The setting was the function's only: the log is closed again.
    await refused(t.deps.db.execute(sql`update audit_log set ip = null where id = ${others}`));
  });

  it("a member's role change is logged, whatever the path", async () => {
    const { shop } = await shopWithOwner(t);
    const staff = await signedIn(t);
    await addStaff(t.deps, shop.id, staff.user.id, "member");
    await t.deps.db.execute(
      sql`update member set role = 'admin' where organization_id = ${shop.id} and user_id = ${staff.user.id}`,
    );
    expect(await logOf(shop.id, "member.role")).toEqual([
      { actor_id: null, target: staff.user.id, details: { from: "member", to: "admin" } },
    ]);
  });

  it("a settings change is logged with its section, not its values; a refused one is not", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const bad = await owner.client.request(`/api/backoffice/shops/${shop.id}/hours`, { method: "PUT", json: {} });
    expect(bad.status).toBe(400);
    expect(await logOf(shop.id, "settings.update")).toEqual([]);
    const renewed = await owner.client.request(`/api/backoffice/shops/${shop.id}/code-secret`, { method: "POST" });
    expect(renewed.status).toBe(200);
    expect(await logOf(shop.id, "settings.update")).toEqual([
      { actor_id: owner.user.id, target: shop.id, details: { section: "code-secret", method: "POST" } },
    ]);
  });

  it("a till's keys are settings: an API key made and revoked, a webhook added and removed, a receipt key", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const base = `/api/backoffice/shops/${shop.id}`;
    const made = await owner.client.request(`${base}/api-keys`, { json: { name: "Caisse", scopes: ["rewards:read"] } });
    expect(made.status).toBe(201);
    const { key } = await made.json();
    expect((await owner.client.request(`${base}/api-keys/${key.id}/revoke`, { method: "POST" })).status).toBe(200);
    expect((await owner.client.request(`${base}/receipt-key`, { method: "POST" })).status).toBe(200);
    const hook = await owner.client.request(`${base}/webhooks`, {
      json: { url: "https://hooks.example.org/fidele", events: ["visit.credited"] },
    });
    expect(hook.status).toBe(201);
    const { webhook } = await hook.json();
    expect((await owner.client.request(`${base}/webhooks/${webhook.id}`, { method: "DELETE" })).status).toBe(200);
    const sections = (await logOf(shop.id, "settings.update")).map((r) => r.details);
    expect(sections).toEqual([
      { section: "api-keys", method: "POST" },
      { section: "api-keys", method: "POST" },
      { section: "receipt-key", method: "POST" },
      { section: "webhooks", method: "POST" },
      { section: "webhooks", method: "DELETE" },
    ]);
    expect(JSON.stringify(sections)).not.toContain("fid_");
  });

  it("exports are logged: a shop's lots won, all customers, and one's own data", async () => {
    const { shop, owner } = await shopWithOwner(t);
    expect((await owner.client.request(`/api/backoffice/shops/${shop.id}/contest-winnings/export`)).status).toBe(200);
    expect(await logOf(shop.id, "export.winnings")).toEqual([{ actor_id: owner.user.id, target: null, details: null }]);
    expect((await owner.client.request("/api/backoffice/customers/export.csv")).status).toBe(200);
    expect((await owner.client.request("/api/accounts/me/export")).status).toBe(200);
    const mine = await t.deps.db.execute<{ action: string }>(
      sql`select action from audit_log where actor_id = ${owner.user.id} and action like 'export.%' order by created_at`,
    );
    expect(mine.rows.map((r) => r.action)).toEqual(["export.winnings", "export.customers", "export.personal"]);
  });
});

/**
 * Issue 22 row 4, on PostgreSQL with the two roles the README describes (DATABASE_URL for the server, DATABASE_OWNER_URL
 * for migrations): the server's role cannot rewrite the log, whatever statement it sends.
 */
describe.skipIf(!inject("testDatabaseUrl"))("issue 22 row 4: as the server's role (PostgreSQL, two roles)", () => {
  let app: Awaited<ReturnType<typeof openAppRoleDatabase>>;
  beforeAll(async () => {
    app = await openAppRoleDatabase();
  });
  afterAll(async () => {
    await app.database.close();
    await dropAppRole(app.appRole);
  });
  const asServer = (statement: string, params: unknown[] = []) =>
    app.database.pool!.query(statement, params).then(
      () => "accepted",
      (e: Error) => e.message,
    );

  it("alter table, disable trigger, delete, update and truncate on audit_log are refused; insert and read work", async () => {
    const [me] = (await app.database.pool!.query<{ me: string }>("select current_user as me")).rows;
    expect(me?.me).toBe(app.appRole);
    const target = randomUUID();
    expect(
      await asServer(`insert into audit_log (action, target, ip) values ('user.ban', $1, '203.0.113.30')`, [target]),
    ).toBe("accepted");
    const refusals = [
      "alter table audit_log disable trigger audit_log_append_only",
      "alter table audit_log disable trigger all",
      "drop trigger audit_log_append_only on audit_log",
      "alter table ledger_entries disable trigger ledger_entries_append_only",
      "create or replace function fidele_audit_append_only() returns trigger language plpgsql as $$ begin return new; end $$",
      "drop table audit_log",
      `delete from audit_log where target = '${target}'`,
      `update audit_log set ip = null where target = '${target}'`,
      "truncate audit_log",
      "create table public.sneaky (id int)",
    ];
    for (const statement of refusals) {
      expect(await asServer(statement), statement).toMatch(/must be owner|permission denied/);
    }
    // With the erasure setting raised by hand, still no UPDATE: the role has none on the table.
    const raised = await app.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select set_config('fidele.erasing_user', ${target}, true)`);
        await tx.execute(sql`update audit_log set ip = null where target = ${target}`);
      })
      .then(
        () => "accepted",
        (e: Error & { cause?: Error }) => e.cause?.message ?? e.message,
      );
    expect(raised).toMatch(/permission denied/);
    const kept = await app.database.pool!.query("select action, ip from audit_log where target = $1", [target]);
    expect(kept.rows).toEqual([{ action: "user.ban", ip: "203.0.113.30" }]);
  });

  it("the erasure, run by the server's role, goes through the definer function and blanks only that person", async () => {
    const leonie = await person();
    const admin = await person();
    const hers = await audit({ actorId: leonie.id, action: "export.personal", ip: "203.0.113.31" });
    const his = await audit({ actorId: admin.id, action: "user.ban", target: leonie.id, ip: "203.0.113.32" });
    expect(await asServer("select fidele_erase_person_traces($1)", [leonie.id])).toBe("accepted");
    expect(await auditRow(hers)).toMatchObject({ ip: null });
    expect(await auditRow(his)).toMatchObject({ ip: "203.0.113.32" });
    expect(await asServer("select fidele_grant_app_role($1)", [app.appRole])).toMatch(/permission denied/);
  });

  it("the app, connected as that role, erases an account end to end", async () => {
    const second = await openAppRoleDatabase();
    const onRole = await createTestApp({ database: second.database, migrated: true });
    try {
      const user = await onRole.createUser({
        firstName: "Anatole",
        lastName: `Rôle${randomUUID().slice(0, 6)}`,
        password: "un-mot-de-passe-solide",
      });
      const client = onRole.client();
      await client.signIn(user.email, "un-mot-de-passe-solide");
      expect((await client.request("/api/accounts/me/export")).status).toBe(200);
      const res = await client.request("/api/accounts/me", {
        method: "DELETE",
        json: { password: "un-mot-de-passe-solide" },
      });
      expect(res.status).toBe(200);
      const rows = await t.deps.db.execute<{ action: string; ip: string | null }>(
        sql`select action, ip from audit_log where actor_id = ${user.id} order by created_at`,
      );
      expect(rows.rows.map((r) => r.action)).toEqual(["export.personal", "account.delete"]);
      expect(rows.rows.every((r) => r.ip === null)).toBe(true);
    } finally {
      await onRole.close();
    }
  });

  it("a one-role install moving to two: the job engine's schema is handed to the server's role, which runs it", async () => {
    const scratch = await createScratchDatabase(inject("testDatabaseUrl"), "roles");
    try {
      // As before: one role made pg-boss's schema.
      const { PgBoss } = await import("pg-boss");
      const before = new PgBoss({ connectionString: scratch.url, max: 1 });
      before.on("error", () => {});
      await before.start();
      await before.stop({ graceful: false });
      const moved = await openAppRoleDatabase(scratch.url);
      const onRole = await createTestApp({ database: moved.database, migrated: true, jobs: true });
      try {
        expect(onRole.deps.jobs.boss).not.toBeNull();
        const owners = await moved.database.pool!.query<{ owner: string }>(
          "select distinct relowner::regrole::text as owner from pg_class where relnamespace = 'pgboss'::regnamespace",
        );
        expect(owners.rows).toEqual([{ owner: moved.appRole }]);
      } finally {
        await onRole.close();
      }
    } finally {
      await scratch.drop();
    }
  });

  it("with one address only, the server works as before and says why the log is less safe", async () => {
    const warnings: string[] = [];
    const single = await openServerDatabase({ DATABASE_URL: inject("testDatabaseUrl"), DATA_DIR: "" }, (message) =>
      warnings.push(message),
    );
    try {
      expect((await single.pool!.query("select count(*)::int as n from audit_log")).rows[0].n).toBeGreaterThan(0);
    } finally {
      await single.close();
    }
    expect(warnings).toEqual([expect.stringMatching(/one role.*DATABASE_OWNER_URL/s)]);
    expect(() => parseEnv({ DATABASE_OWNER_URL: inject("testDatabaseUrl"), SECRET: "x".repeat(32) })).toThrow(
      /DATABASE_OWNER_URL: needs DATABASE_URL/,
    );
  });

  it("a server role that is a superuser or the tables' owner is refused at start", async () => {
    const ownerUrl = inject("testDatabaseUrl");
    await expect(
      openServerDatabase({ DATABASE_URL: ownerUrl, DATABASE_OWNER_URL: ownerUrl, DATA_DIR: "" }, () => {}),
    ).rejects.toThrow(/must not be a superuser nor the owner/);
  });
});
