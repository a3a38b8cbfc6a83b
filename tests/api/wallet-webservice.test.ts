import { unzipSync } from "fflate";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantPoints } from "../../src/server/db/factories.ts";
import { eraseAccount } from "../../src/server/modules/accounts/rgpd.service.ts";
import { makeWalletCa, type WalletCa } from "../fixtures/wallet-ca.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { sleep } from "../setup/timing.ts";
import { appleDevice, cardAtShop, downloadPass, passJsonOf } from "./wallet-helpers.ts";

/**
 * Issue 26, acceptance row 2: the PassKit web service's whole protocol — register 201 then 200, a wrong token 401,
 * passesUpdatedSince 204 and with serials, the latest pass with Last-Modified / 304, unregister, log — on PGlite, and
 * on PostgreSQL when TEST_DATABASE_URL is set (the api suite runs this file on both). Requests are made as an iPhone
 * makes them: no cookie, no Origin, `Authorization: ApplePass <token>`.
 */
let ca: WalletCa;
let t: TestApp;

beforeAll(async () => {
  ca = makeWalletCa();
  t = await createTestApp({ env: ca.appleEnv });
});
afterAll(async () => {
  await t?.close();
  ca?.remove();
});

const device = (token: string | null) => appleDevice(t, token);

describe("the PassKit web service", () => {
  it("registers, lists what changed, serves the latest pass and unregisters", async () => {
    const { client, cardId, shop, user } = await cardAtShop(t);
    const { pass } = await downloadPass(client, cardId);
    const token = pass.authenticationToken;
    const deviceId = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
    const registration = `/devices/${deviceId}/registrations/${ca.passTypeId}/${cardId}`;
    const list = `/devices/${deviceId}/registrations/${ca.passTypeId}`;
    const phone = device(token);

    // Nothing registered yet.
    expect((await phone(list)).status).toBe(204);

    // A wrong token, or none: 401 — and nothing registered.
    const wrong = await device("x".repeat(32))(registration, { method: "POST", json: { pushToken: "ab".repeat(32) } });
    expect(wrong.status).toBe(401);
    expect((await device(null)(registration, { method: "POST", json: { pushToken: "ab".repeat(32) } })).status).toBe(
      401,
    );
    expect((await phone(list)).status).toBe(204);

    // Register: 201, then 200 (the same device again, with a new push token).
    expect((await phone(registration, { method: "POST", json: { pushToken: "ab".repeat(32) } })).status).toBe(201);
    expect((await phone(registration, { method: "POST", json: { pushToken: "cd".repeat(32) } })).status).toBe(200);
    const tokens = await t.deps.db.execute<{ push_token: string }>(
      sql`select push_token from wallet_registrations where card_id = ${cardId}`,
    );
    expect(tokens.rows).toEqual([{ push_token: "cd".repeat(32) }]);

    // Without a tag: every registered pass, and a tag.
    const all = await phone(list);
    expect(all.status).toBe(200);
    const first = (await all.json()) as { serialNumbers: string[]; lastUpdated: string };
    expect(first.serialNumbers).toEqual([cardId]);
    expect(first.lastUpdated).toMatch(/^\d+$/);
    // Nothing changed since that tag: 204.
    expect((await phone(`${list}?passesUpdatedSince=${first.lastUpdated}`)).status).toBe(204);

    // The latest pass, with Last-Modified; the same date back: 304.
    const latest = await phone(`/passes/${ca.passTypeId}/${cardId}`);
    expect(latest.status).toBe(200);
    expect(latest.headers.get("content-type")).toBe("application/vnd.apple.pkpass");
    const lastModified = latest.headers.get("last-modified")!;
    expect(new Date(lastModified).getTime()).not.toBeNaN();
    const notModified = await phone(`/passes/${ca.passTypeId}/${cardId}`, {
      headers: { "if-modified-since": lastModified },
    });
    expect(notModified.status).toBe(304);
    expect((await device("y".repeat(32))(`/passes/${ca.passTypeId}/${cardId}`)).status).toBe(401);

    // The balance moves (a correction, a visit…): the pass is listed again, and the latest one shows it. Its
    // Last-Modified is a later second, so wait for the next one (HTTP dates have whole seconds).
    await sleep(1100);
    await grantPoints(t.deps, { shopId: shop.id, userId: user.id, points: 3, reason: "Geste commercial" });
    const changed = await phone(`${list}?passesUpdatedSince=${first.lastUpdated}`);
    expect(changed.status).toBe(200);
    const second = (await changed.json()) as { serialNumbers: string[]; lastUpdated: string };
    expect(second.serialNumbers).toEqual([cardId]);
    expect(Number(second.lastUpdated)).toBeGreaterThan(Number(first.lastUpdated));
    const fresh = await phone(`/passes/${ca.passTypeId}/${cardId}`, { headers: { "if-modified-since": lastModified } });
    expect(fresh.status).toBe(200);
    const freshPass = passJsonOf(unzipSync(new Uint8Array(await fresh.arrayBuffer())));
    expect(freshPass.storeCard.primaryFields[0]?.value).toBe("4 tampons sur 10");
    expect(freshPass.authenticationToken).toBe(token);

    // Wallet's log lines: 200.
    expect(
      (await phone("/log", { method: "POST", json: { logs: ["Web service error for pass.fr.fidele.test"] } })).status,
    ).toBe(200);

    // Another pass type than this instance's: not ours.
    expect((await phone(`/devices/${deviceId}/registrations/pass.other.type`)).status).toBe(404);

    // Unregister: a wrong token 401, the right one 200; then nothing is listed.
    expect((await device("z".repeat(32))(registration, { method: "DELETE" })).status).toBe(401);
    expect((await phone(registration, { method: "DELETE" })).status).toBe(200);
    expect((await phone(list)).status).toBe(204);
  });

  it("a shop closed by its owner voids its passes, and no new pass is made for it", async () => {
    const { client, cardId, shop } = await cardAtShop(t);
    const { pass } = await downloadPass(client, cardId);
    await t.deps.db.execute(sql`update shops set deleted_at = now(), updated_at = now() where id = ${shop.id}`);
    const latest = await device(pass.authenticationToken)(`/passes/${ca.passTypeId}/${cardId}`);
    expect(latest.status).toBe(200);
    expect(passJsonOf(unzipSync(new Uint8Array(await latest.arrayBuffer()))).voided).toBe(true);
    expect((await client.request(`/api/wallet/cards/${cardId}/apple.pkpass`)).status).toBe(404);
  });

  it("an erased account's pass is gone: 401 for its token, and its registrations went with it", async () => {
    const { client, cardId, user } = await cardAtShop(t);
    const { pass } = await downloadPass(client, cardId);
    const phone = device(pass.authenticationToken);
    const deviceId = "f0e1d2c3b4a5968778695a4b3c2d1e0f";
    expect(
      (
        await phone(`/devices/${deviceId}/registrations/${ca.passTypeId}/${cardId}`, {
          method: "POST",
          json: { pushToken: "ef".repeat(32) },
        })
      ).status,
    ).toBe(201);
    await eraseAccount(t.deps, user.id, { purge: true });
    expect((await phone(`/passes/${ca.passTypeId}/${cardId}`)).status).toBe(401);
    expect((await phone(`/devices/${deviceId}/registrations/${ca.passTypeId}`)).status).toBe(204);
    const left = await t.deps.db.execute(sql`select 1 from wallet_registrations where card_id = ${cardId}`);
    expect(left.rows).toHaveLength(0);
  });
});
