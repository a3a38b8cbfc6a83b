import { createECDH, randomBytes } from "node:crypto";
import diagnostics from "node:diagnostics_channel";
import type http from "node:http";
import net from "node:net";
import { and, eq, sql } from "drizzle-orm";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { recordVisit } from "../../src/server/db/factories.ts";
import { pushSubscriptions } from "../../src/server/db/schema/index.ts";
import { trustCertificateAuthority } from "../../src/server/lib/outbound.ts";
import { finishIfDone, processMessageBatch } from "../../src/server/modules/messages/sending.service.ts";
import { MAX_DEVICES_PER_ACCOUNT, SUBSCRIBE_THROTTLE } from "../../src/server/modules/messages/preferences.service.ts";
import { type PushService, startPushService } from "../fixtures/push-service.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { type Client, shopWithOwner, signedIn } from "./shops-helpers.ts";
import { SOON } from "../setup/timing.ts";

/**
 * Issue 22 rows 1 and 10, item 1: push endpoints go through the outbound door. A plain TCP listener on the
 * loopback counts every connection it gets; every HTTP request the process starts is recorded
 * (diagnostics channel `http.client.request.start`, which web-push's and the door's requests both publish).
 * The local push service is reached only because the test's configuration lists it (PUSH_SERVICE_ORIGINS).
 */
let t: TestApp;
let ps: PushService;
let listener: net.Server;
let listener6: net.Server | null = null;
let port = 0;
let closedPort = 0;
let connections = 0;
const started: string[] = [];
const onRequest = (message: unknown) => {
  const { request } = message as { request: http.ClientRequest };
  started.push(String(request.getHeader("host")));
};

async function listen(server: net.Server, host: string, at: number) {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(at, host, () => resolve());
  });
  return (server.address() as net.AddressInfo).port;
}

beforeAll(async () => {
  const count = (socket: net.Socket) => {
    connections++;
    socket.destroy();
  };
  listener = net.createServer(count);
  port = await listen(listener, "127.0.0.1", 0);
  try {
    listener6 = net.createServer(count);
    await listen(listener6, "::1", port);
  } catch {
    listener6 = null; // no IPv6 loopback here: [::1] is still refused before any connection
  }
  // A port nobody listens on: a second "push service" the operator lists, to show a closed port answers the same.
  const probe = net.createServer();
  closedPort = await listen(probe, "127.0.0.1", 0);
  await new Promise<void>((resolve) => probe.close(() => resolve()));

  ps = await startPushService();
  trustCertificateAuthority(ps.cert);
  const vapid = webpush.generateVAPIDKeys();
  t = await createTestApp({
    env: {
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: "mailto:test@fidele.local",
      PUSH_SERVICE_ORIGINS: `${ps.origin},https://127.0.0.1:${closedPort}`,
    },
  });
  diagnostics.subscribe("http.client.request.start", onRequest);
});

afterAll(async () => {
  diagnostics.unsubscribe("http.client.request.start", onRequest);
  trustCertificateAuthority(undefined);
  await t?.close();
  await ps?.close();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  if (listener6) await new Promise<void>((resolve) => listener6!.close(() => resolve()));
});

/** A browser's real keys (web-push refuses to encrypt to malformed ones, which would make the send test vacuous). */
const ecdh = createECDH("prime256v1");
ecdh.generateKeys();
const KEYS = { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };

/** The 8 addresses of row 1, and the other spellings of the loopback (all on the listener's port where one fits). */
const probes = () => [
  `https://127.0.0.1:${port}/push/a`,
  `https://localhost:${port}/push/a`,
  `https://[::1]:${port}/push/a`,
  `https://2130706433:${port}/push/a`,
  "https://169.254.169.254/latest/meta-data/",
  "https://192.0.2.1:8443/push/a",
  `https://0x7f.0.0.1:${port}/push/a`,
  `https://0177.0.0.1:${port}/push/a`,
  `https://[::ffff:127.0.0.1]:${port}/push/a`,
  `https://localhost.:${port}/push/a`,
  `https://127.1:${port}/push/a`,
];
/** Requests started toward a probe (by their Host header): the listener's port, the metadata service, TEST-NET-1. */
const towardProbes = () =>
  started.filter((h) => h.endsWith(`:${port}`) || h.startsWith("169.254.169.254") || h.startsWith("192.0.2.1"));

let deviceNo = 0;
const newDeviceId = () => `device-outbound-${process.pid}-${++deviceNo}`;

async function post(client: Client, endpoint: string, deviceId = newDeviceId(), keys = KEYS) {
  const res = await client.request("/api/messages/devices", { json: { deviceId, subscription: { endpoint, keys } } });
  return { status: res.status, body: await res.text() };
}

async function devicesOf(userId: string) {
  return t.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
}

async function drain(messageId: string) {
  for (let i = 0; i < 20; i++) {
    const r = await processMessageBatch(t.deps, messageId, { limit: 50 });
    if (r.remaining === 0) break;
  }
  await finishIfDone(t.deps.db, messageId);
}

describe("issue 22 row 1: a push endpoint cannot make the server connect anywhere", () => {
  it("issue 22 row 1: none of the 8 addresses (nor another loopback spelling) is connected to on subscribing; every answer is the same 400", async () => {
    const { client, user } = await signedIn(t);
    const answers = [];
    for (const endpoint of probes()) answers.push(await post(client, endpoint));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]?.status).toBe(400);
    expect(answers[0]?.body).toContain("ce n'est pas un service de notifications connu");
    expect(await devicesOf(user.id)).toEqual([]);
    expect(connections).toBe(0);
    expect(towardProbes()).toEqual([]);
  });

  it("issue 22 row 1: endpoints stored before the rule are checked again when a shop message is sent: no connection, the rows are dropped", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const { user } = await signedIn(t);
    await recordVisit(t.deps, { shopId: shop.id, userId: user.id, at: new Date() });
    await t.deps.db.execute(
      sql`insert into consents (user_id, channel, granted, wording) values (${user.id}, 'push', true, 'test')`,
    );
    const endpoints = probes();
    for (const endpoint of endpoints) {
      await t.deps.db
        .insert(pushSubscriptions)
        .values({ userId: user.id, deviceId: newDeviceId(), endpoint, p256dh: KEYS.p256dh, auth: KEYS.auth });
    }
    const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/messages`, {
      json: { title: "Promo", body: "Texte", push: true, segment: { kind: "all" } },
    });
    expect(res.status).toBe(201);
    const { message } = (await res.json()) as { message: { id: string } };
    await drain(message.id);
    expect(connections).toBe(0);
    expect(towardProbes()).toEqual([]);
    expect(await devicesOf(user.id)).toEqual([]);
    const [push] = (
      await t.deps.db.execute<{ status: string }>(
        sql`select status from message_deliveries where message_id = ${message.id} and channel = 'push'`,
      )
    ).rows;
    expect(push?.status).toBe("failed");
  });

  it("issue 22 row 1: the answer to subscribing is the same whatever the push service does (201, 404, 410, closed port)", async () => {
    const { client } = await signedIn(t);
    const ok = ps.newDevice();
    const unknown = ps.newDevice();
    ps.forget(unknown.pushId); // the service answers 404
    const gone = ps.newDevice();
    ps.answer(gone.pushId, { status: 410 });
    const answers = [
      await post(client, ok.subscription.endpoint, ok.deviceId, ok.subscription.keys),
      await post(client, unknown.subscription.endpoint, unknown.deviceId, unknown.subscription.keys),
      await post(client, gone.subscription.endpoint, gone.deviceId, gone.subscription.keys),
      await post(client, `https://127.0.0.1:${closedPort}/push/x`, newDeviceId(), ok.subscription.keys),
    ];
    expect(answers).toEqual(Array(4).fill({ status: 201, body: JSON.stringify({ saved: true }) }));
    // The welcome still reaches the device that exists, after the answer.
    await vi.waitFor(() => expect(ps.for(ok.pushId)).toHaveLength(1), { timeout: SOON });
  });
});

describe("issue 22 item 1: devices per account are capped and subscribing is throttled", () => {
  const reset = (userId: string) =>
    t.deps.db.execute(sql`delete from auth_throttle where key = ${`push-subscribe:${userId}`}`);

  it(`issue 22 item 1: ${MAX_DEVICES_PER_ACCOUNT} devices at most; the next one drops the oldest`, async () => {
    const { client, user } = await signedIn(t);
    const subscribed = [];
    for (let i = 0; i < MAX_DEVICES_PER_ACCOUNT + 2; i++) {
      if (i === SUBSCRIBE_THROTTLE.max) await reset(user.id);
      const device = ps.newDevice();
      const res = await client.request("/api/messages/devices", {
        method: "PUT", // the weekly check: no welcome push, the same saving
        json: { deviceId: device.deviceId, subscription: device.subscription },
      });
      expect(res.status).toBe(200);
      subscribed.push(device.deviceId);
    }
    const kept = (await devicesOf(user.id)).map((d) => d.deviceId).sort();
    expect(kept).toHaveLength(MAX_DEVICES_PER_ACCOUNT);
    expect(kept).toEqual(subscribed.slice(2).sort());
  });

  it(`issue 22 item 1: ${SUBSCRIBE_THROTTLE.max} subscriptions an hour, then 429 in French`, async () => {
    const { client, user } = await signedIn(t);
    const statuses = [];
    for (let i = 0; i < SUBSCRIBE_THROTTLE.max + 3; i++) {
      const device = ps.newDevice();
      const res = await client.request("/api/messages/devices", {
        method: "PUT",
        json: { deviceId: device.deviceId, subscription: device.subscription },
      });
      statuses.push(res.status);
      if (res.status === 429) expect(((await res.json()) as { message: string }).message).toMatch(/Réessayez dans/);
    }
    expect(statuses).toEqual([...Array(SUBSCRIBE_THROTTLE.max).fill(200), 429, 429, 429]);
    expect(await devicesOf(user.id)).toHaveLength(SUBSCRIBE_THROTTLE.max);
    // Renewals count too.
    const renewed = await client.request("/api/messages/devices/renew", {
      json: { oldEndpoint: "https://127.0.0.1/x", subscription: ps.newDevice().subscription },
    });
    expect(renewed.status).toBe(429);
  });
});

describe("issue 22 row 10: a subscription is changed only by its owner", () => {
  async function owned() {
    const a = await signedIn(t);
    const device = ps.newDevice();
    const res = await a.client.request("/api/messages/devices", {
      json: { deviceId: device.deviceId, subscription: device.subscription },
    });
    expect(res.status).toBe(201);
    await vi.waitFor(() => expect(ps.for(device.pushId)).toHaveLength(1), { timeout: SOON });
    const [row] = await devicesOf(a.user.id);
    return { a, device, row: row! };
  }
  const same = async (row: { id: string }) =>
    (await t.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, row.id)))[0];

  it("issue 22 row 10: another account posting someone's device id or endpoint neither takes it over nor drops it", async () => {
    const { device, row } = await owned();
    const b = await signedIn(t);
    const other = ps.newDevice();
    // Their device id with another endpoint (take-over), then their endpoint under another device id (drop).
    const takeOver = await post(b.client, other.subscription.endpoint, device.deviceId, other.subscription.keys);
    const drop = await post(b.client, device.subscription.endpoint, newDeviceId(), other.subscription.keys);
    const recheck = await b.client.request("/api/messages/devices", {
      method: "PUT",
      json: { deviceId: device.deviceId, subscription: other.subscription },
    });
    expect(takeOver).toEqual({ status: 201, body: JSON.stringify({ saved: true }) });
    expect(drop).toEqual(takeOver);
    expect(recheck.status).toBe(200);
    expect(await same(row)).toEqual(row);
    expect(await devicesOf(b.user.id)).toEqual([]);
    // Nor by deleting it or renewing it.
    const del = await b.client.request(`/api/messages/devices/${device.deviceId}`, { method: "DELETE" });
    expect(await del.json()).toEqual({ removed: false });
    const renew = await b.client.request("/api/messages/devices/renew", {
      json: { oldEndpoint: device.subscription.endpoint, subscription: other.subscription },
    });
    expect(await renew.json()).toEqual({ renewed: false });
    expect(await same(row)).toEqual(row);
  });

  it("issue 22 row 10: renewing one's own subscription onto someone else's endpoint changes nothing (no 500)", async () => {
    const { device, row } = await owned();
    const mine = await owned();
    const renew = await mine.a.client.request("/api/messages/devices/renew", {
      json: { oldEndpoint: mine.device.subscription.endpoint, subscription: device.subscription },
    });
    expect(renew.status).toBe(200);
    expect(await renew.json()).toEqual({ renewed: false });
    expect(await same(row)).toEqual(row);
    expect(await same(mine.row)).toEqual(mine.row);
  });

  it("issue 22 row 10: the same browser signed in to another account (endpoint and both keys equal) moves to it", async () => {
    const { a, device, row } = await owned();
    const b = await signedIn(t);
    const res = await post(b.client, device.subscription.endpoint, device.deviceId, device.subscription.keys);
    expect(res.status).toBe(201);
    expect(await devicesOf(a.user.id)).toEqual([]);
    const moved = await t.deps.db
      .select()
      .from(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, b.user.id), eq(pushSubscriptions.deviceId, device.deviceId)));
    expect(moved.map((m) => m.endpoint)).toEqual([row.endpoint]);
  });
});
