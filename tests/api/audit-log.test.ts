import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff } from "../../src/server/db/factories.ts";
import { recordAudit } from "../../src/server/lib/audit.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
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
    await t.deps.db.execute<{ actor_id: string | null; target: string | null; details: Record<string, unknown> | null }>(
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

describe("audit log", () => {
  it("cannot be updated, deleted or truncated, whoever connects", async () => {
    const target = randomUUID();
    await recordAudit(t.deps.db, { actorId: null, action: "user.ban", target, ip: "203.0.113.9" });
    await refused(t.deps.db.execute(sql`update audit_log set action = 'user.unban' where target = ${target}`));
    await refused(t.deps.db.execute(sql`update audit_log set ip = null where target = ${target}`));
    await refused(t.deps.db.execute(sql`delete from audit_log where target = ${target}`));
    await refused(t.deps.db.execute(sql`truncate audit_log`));
    // The RGPD erasure's one exception, inside its own transaction: the address may go, nothing else may change.
    await refused(t.deps.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('fidele.audit_erasure', 'on', true)`);
        await tx.execute(sql`update audit_log set ip = null, action = 'user.unban' where target = ${target}`);
      }));
    await refused(t.deps.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('fidele.audit_erasure', 'on', true)`);
        await tx.execute(sql`delete from audit_log where target = ${target}`);
      }));
    await t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('fidele.audit_erasure', 'on', true)`);
      await tx.execute(sql`update audit_log set ip = null where target = ${target}`);
    });
    // The setting was the transaction's only: the next statement is refused again.
    await refused(t.deps.db.execute(sql`update audit_log set ip = null where target = ${target}`));
    const rows = await t.deps.db.execute(sql`select action, ip from audit_log where target = ${target}`);
    expect(rows.rows).toEqual([{ action: "user.ban", ip: null }]);
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
