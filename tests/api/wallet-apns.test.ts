import http2 from "node:http2";
import { sql } from "drizzle-orm";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Database, openDatabase } from "../../src/server/db/client.ts";
import { trustCertificateAuthority } from "../../src/server/lib/outbound.ts";
import { type ApnsServer, startApnsServer } from "../fixtures/apns-server.ts";
import { makeWalletCa, type WalletCa } from "../fixtures/wallet-ca.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { eventually } from "../setup/eventually.ts";
import { createScratchDatabase } from "../setup/scratch-db.ts";
import { LONG_TEST, SLOW_WORK } from "../setup/timing.ts";
import { scan } from "./shops-helpers.ts";
import { appleDevice, cardAtShop, downloadPass, passJsonOf } from "./wallet-helpers.ts";

/**
 * Issue 26, acceptance row 3: a scan makes the local APNs receive one push for that device (topic = the pass type,
 * an empty body) and the next pass fetched shows the new balance; 50 scans in a minute make at most one push a
 * minute for the card; 410 forgets the device; 429 is honoured. The job engine runs (wallet.sweep, wallet.apple);
 * the local APNs is HTTP/2 with client-certificate authentication (tests/fixtures/apns-server.ts). On PostgreSQL the
 * file has a database of its own, so its sweeps never reach another file's passes.
 */
let ca: WalletCa;
let apns: ApnsServer;
let t: TestApp;
let dropScratch: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ca = makeWalletCa();
  apns = await startApnsServer(ca);
  trustCertificateAuthority(ca.ca);
  const url = inject("testDatabaseUrl");
  let database: Database | undefined;
  if (url) {
    const scratch = await createScratchDatabase(url, "wallet");
    dropScratch = scratch.drop;
    database = await openDatabase({ url: scratch.url, poolSize: 6 });
  }
  t = await createTestApp({ jobs: true, database, env: { ...ca.appleEnv, APPLE_APNS_URL: apns.url } });
});
afterAll(async () => {
  trustCertificateAuthority(undefined);
  await t?.close();
  await apns?.close();
  await dropScratch?.();
  ca?.remove();
});

/** A card whose pass is on an iPhone registered for its updates (no cooldown: every scan credits). */
async function passOnAnIphone(pushToken: string) {
  const card = await cardAtShop(t, { rules: { mode: "stamps", stampsGoal: 100, cooldownMinutes: 0, dailyCap: 100 } });
  const { pass } = await downloadPass(card.client, card.cardId);
  const phone = appleDevice(t, pass.authenticationToken);
  const deviceId = `device${pushToken.slice(0, 12)}`;
  const registered = await phone(`/devices/${deviceId}/registrations/${ca.passTypeId}/${card.cardId}`, {
    json: { pushToken },
  });
  expect(registered.status).toBe(201);
  return { ...card, phone, deviceId, pushToken };
}

const newToken = () => crypto.randomUUID().replaceAll("-", "").repeat(2);

async function passRow(cardId: string) {
  const { rows } = await t.deps.db.execute<{
    apple_pushed_at: Date | string | null;
    apple_pushed_hash: string | null;
    content_hash: string;
  }>(sql`select apple_pushed_at, apple_pushed_hash, content_hash from wallet_passes where card_id = ${cardId}`);
  return rows[0]!;
}

const ms = (value: Date | string | null) => (value === null ? null : new Date(value).getTime());

/** The wallet.apple job waiting for this card, if any: when it may start. */
async function waitingPush(cardId: string) {
  const { rows } = await t.deps.db.execute<{ start_after: Date | string }>(
    sql`select start_after from pgboss.job where name = 'wallet.apple' and singleton_key = ${cardId} and state = 'created'`,
  );
  return rows[0] ? ms(rows[0].start_after) : null;
}

describe("live updates through APNs", () => {
  it("a scan pushes once to the device (topic = pass type, empty body); the next pass fetched shows the balance", async () => {
    const { client, shop, cardId, phone, pushToken } = await passOnAnIphone(newToken());
    expect(apns.pushesTo(pushToken)).toHaveLength(0);
    const visit = await scan(client, t.deps.db, shop.id);
    expect(visit.body.accepted).toBe(true);

    await eventually(() => apns.pushesTo(pushToken).length).toBe(1);
    const [push] = apns.pushesTo(pushToken);
    expect(push).toMatchObject({ topic: ca.passTypeId, clientSubject: `Pass Type ID: ${ca.passTypeId}` });
    expect(JSON.parse(push!.body)).toEqual({});

    const latest = await phone(`/passes/${ca.passTypeId}/${cardId}`);
    expect(latest.status).toBe(200);
    const pass = passJsonOf(unzipSync(new Uint8Array(await latest.arrayBuffer())));
    expect(pass.storeCard.primaryFields[0]?.value).toBe("2 tampons sur 100");
  });

  it("a correction in the back office and a new personal code each reach the phone", {
    timeout: LONG_TEST,
  }, async () => {
    const { client, owner, shop, cardId, phone, pushToken } = await passOnAnIphone(newToken());
    const corrected = await owner.client.request(`/api/backoffice/shops/${shop.id}/adjust`, {
      json: { cardId, delta: 2, reason: "Tampons oubliés", idempotencyKey: crypto.randomUUID() },
    });
    expect(corrected.status).toBe(201);
    await eventually(() => apns.pushesTo(pushToken).length).toBe(1);
    const afterCorrection = passJsonOf(
      unzipSync(new Uint8Array(await (await phone(`/passes/${ca.passTypeId}/${cardId}`)).arrayBuffer())),
    );
    expect(afterCorrection.storeCard.primaryFields[0]?.value).toBe("3 tampons sur 100");

    // A new code re-issues the pass (its barcode), once the minute since the last push is over.
    const renewed = await (await client.request("/api/cards/personal-code", { method: "POST" })).json();
    await eventually(() => apns.pushesTo(pushToken).length, { timeout: SLOW_WORK }).toBe(2);
    const afterRenewal = passJsonOf(
      unzipSync(new Uint8Array(await (await phone(`/passes/${ca.passTypeId}/${cardId}`)).arrayBuffer())),
    );
    expect(afterRenewal.barcodes[0]).toMatchObject({
      message: renewed.personalCode.qr,
      altText: renewed.personalCode.display,
    });
  });

  it("a 410 forgets the device; the pass keeps its other devices", async () => {
    const gone = await passOnAnIphone(newToken());
    const other = newToken();
    expect(
      (
        await gone.phone(`/devices/other${other.slice(0, 10)}/registrations/${ca.passTypeId}/${gone.cardId}`, {
          json: { pushToken: other },
        })
      ).status,
    ).toBe(201);
    apns.script(gone.pushToken, { status: 410, reason: "Unregistered" });
    await scan(gone.client, t.deps.db, gone.shop.id);
    await eventually(async () => {
      const { rows } = await t.deps.db.execute<{ push_token: string }>(
        sql`select push_token from wallet_registrations where card_id = ${gone.cardId}`,
      );
      return rows.map((r) => r.push_token);
    }).toEqual([other]);
    // The two devices are pushed side by side: the other's push may land after the 410 was handled.
    await eventually(() => apns.pushesTo(other).length).toBe(1);
    expect(apns.pushesTo(gone.pushToken)).toHaveLength(1);
  });

  it("a 429 is honoured: the device stays, the push is tried again after the minute, never sooner", async () => {
    const busy = await passOnAnIphone(newToken());
    apns.script(busy.pushToken, { status: 429, reason: "TooManyRequests", headers: { "retry-after": "5" } });
    await scan(busy.client, t.deps.db, busy.shop.id);
    await eventually(() => apns.pushesTo(busy.pushToken).length).toBe(1);
    // Counted as not pushed, and a try queued no sooner than a minute after the refused one.
    await eventually(() => waitingPush(busy.cardId)).not.toBeNull();
    const row = await passRow(busy.cardId);
    expect(row.apple_pushed_hash).toBeNull();
    expect((await waitingPush(busy.cardId))! - ms(row.apple_pushed_at)!).toBeGreaterThanOrEqual(59_000);
    const left = await t.deps.db.execute(sql`select 1 from wallet_registrations where card_id = ${busy.cardId}`);
    expect(left.rows).toHaveLength(1);
  });

  it("50 scans in a minute: at most one push a minute for the card, and the last balance reaches the phone", {
    timeout: LONG_TEST,
  }, async () => {
    const { client, shop, cardId, phone, pushToken } = await passOnAnIphone(newToken());
    await scan(client, t.deps.db, shop.id);
    await eventually(() => apns.pushesTo(pushToken).length).toBe(1);
    const firstPushAt = ms((await passRow(cardId)).apple_pushed_at)!;
    for (let i = 0; i < 49; i++) {
      const visit = await scan(client, t.deps.db, shop.id);
      expect(visit.body.accepted, JSON.stringify(visit.body)).toBe(true);
    }
    // The pushes claimed so far are a minute apart at least (by the database's clock): however slow this machine
    // was, no more than one push for each minute begun since the first.
    const elapsed = Date.now() - firstPushAt;
    expect(apns.pushesTo(pushToken).length).toBeLessThanOrEqual(1 + Math.floor(elapsed / 60_000));
    // The visits since the first push wait for the minute to end, in one push.
    await eventually(() => apns.pushesTo(pushToken).length, { timeout: SLOW_WORK }).toBe(2);
    const secondPushAt = ms((await passRow(cardId)).apple_pushed_at)!;
    expect(secondPushAt - firstPushAt).toBeGreaterThanOrEqual(60_000);
    const latest = await phone(`/passes/${ca.passTypeId}/${cardId}`);
    const pass = passJsonOf(unzipSync(new Uint8Array(await latest.arrayBuffer())));
    expect(pass.storeCard.primaryFields[0]?.value).toBe("51 tampons sur 100");
    expect(apns.pushesTo(pushToken)).toHaveLength(2);
  });

  it("the local APNs lets only the authority's certificates in (as Apple's lets only the pass certificate)", async () => {
    const session = http2.connect(apns.url, { ca: ca.ca, cert: ca.stranger.cert, key: ca.stranger.key });
    // Refused: the connection ends (an error, or a close) without an answer to the push.
    const refused = await new Promise<boolean>((resolve) => {
      session.on("error", () => resolve(true));
      session.on("close", () => resolve(true));
      const request = session.request({ ":method": "POST", ":path": "/3/device/abc" });
      request.on("response", () => resolve(false));
      request.on("error", () => resolve(true));
      request.on("close", () => resolve(true));
      request.end("{}");
    });
    session.destroy();
    expect(refused).toBe(true);
    await eventually(() => apns.refusedHandshakes()).toBeGreaterThan(0);
  });
});
