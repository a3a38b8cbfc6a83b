import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createReward, grantPoints } from "../../src/server/db/factories.ts";
import { sweepDeliveries } from "../../src/server/modules/webhooks/webhooks.service.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { eventually } from "../setup/eventually.ts";
import { openOwnDatabase } from "../setup/test-db.ts";
import { newKey, scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

/**
 * Issue 29, item 4: signed webhooks (Standard Webhooks) delivered by the job engine through the outbound door to a
 * receiver on localhost (reached through WEBHOOK_TRUSTED_ORIGINS, the door's allowance for what the operator
 * trusts), retried with back-off, logged, sent again by « Renvoyer ».
 */
type Received = { id: string; timestamp: string; signature: string; body: string; verified: boolean; path: string };

/** A receiver that verifies each request the way Standard Webhooks' libraries do; `/flaky` fails 3 times per id. */
function startReceiver(secrets: Map<string, string>) {
  const received: Received[] = [];
  const failures = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const id = String(req.headers["webhook-id"]);
      const timestamp = String(req.headers["webhook-timestamp"]);
      const signature = String(req.headers["webhook-signature"]);
      const secret = secrets.get(req.url ?? "") ?? "";
      const expected = createHmac("sha256", Buffer.from(secret.replace(/^whsec_/, ""), "base64"))
        .update(`${id}.${timestamp}.${body}`)
        .digest();
      const verified = signature
        .split(" ")
        .some((s) => s.startsWith("v1,") && timingSafeEqual(Buffer.from(s.slice(3), "base64"), expected));
      const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
      received.push({ id, timestamp, signature, body, verified: verified && fresh, path: req.url ?? "" });
      if (req.url === "/flaky") {
        const n = (failures.get(id) ?? 0) + 1;
        failures.set(id, n);
        if (n <= 3) {
          res.writeHead(503).end("indisponible");
          return;
        }
      }
      res.writeHead(204).end();
    });
  });
  return new Promise<{ origin: string; received: Received[]; close: () => Promise<void> }>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        received,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let drop: (() => Promise<void>) | undefined;
const secrets = new Map<string, string>();

beforeAll(async () => {
  receiver = await startReceiver(secrets);
  const own = await openOwnDatabase("webhooks", 6);
  drop = own.drop;
  t = await createTestApp({
    jobs: true,
    database: own.database,
    env: { WEBHOOK_TRUSTED_ORIGINS: receiver.origin, WEBHOOK_RETRY_SECONDS: "1,1,1,1", JOBS_SUPERVISE_SECONDS: "1" },
  });
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await drop?.();
});

type Owner = Awaited<ReturnType<typeof shopWithOwner>>["owner"];

async function subscribe(owner: Owner, shopId: string, path: string, events: string[]) {
  const res = await owner.client.request(`/api/backoffice/shops/${shopId}/webhooks`, {
    json: { url: `${receiver.origin}${path}`, events },
  });
  expect(res.status).toBe(201);
  const body = await res.json();
  expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
  secrets.set(path, body.secret);
  return body.webhook as { id: string };
}

const deliveriesOf = async (owner: Owner, shopId: string, webhookId: string) =>
  (await (await owner.client.request(`/api/backoffice/shops/${shopId}/webhooks/${webhookId}/deliveries`)).json())
    .deliveries as {
    id: string;
    eventId: string;
    type: string;
    status: string;
    attempts: { attempt: number; statusCode: number | null; manual: boolean }[];
  }[];

describe("signed webhooks", () => {
  it("a receiver on localhost gets each event once, signed; replays and twice-emitted events send nothing more", async () => {
    const { shop, owner } = await shopWithOwner(t, {
      name: "Café Signé",
      rules: { mode: "points", pointsPerVisit: 10 },
    });
    const hook = await subscribe(owner, shop.id, "/ok", ["visit.credited", "customer.joined", "reward.redeemed"]);
    const customer = await signedIn(t);
    const key = newKey();
    const first = await scan(customer.client, t.deps.db, shop.id, { key });
    expect(first.body.outcome).toBe("accepted");
    await scan(customer.client, t.deps.db, shop.id, { key }); // the same request again: replayed
    await scan(customer.client, t.deps.db, shop.id); // refused (cooldown): no event

    // A reward handed over at the counter.
    await grantPoints(t.deps, { shopId: shop.id, userId: customer.user.id, points: 100 });
    const reward = await createReward(t.deps, { shopId: shop.id, title: "Croissant offert", cost: 50 });
    const slug = reward.slug;
    const redeemed = await customer.client.request(`/api/rewards/${slug}/redeem`, {
      json: { idempotencyKey: newKey() },
    });
    expect(redeemed.status).toBe(201);
    const { redemption } = await redeemed.json();
    const validated = await owner.client.request(
      `/api/backoffice/shops/${shop.id}/redemptions/${redemption.id}/validate`,
      {
        method: "POST",
      },
    );
    expect(validated.status).toBe(200);

    const mine = () => receiver.received.filter((r) => r.path === "/ok");
    await eventually(() => mine().length).toBe(3);
    const types = mine()
      .map((r) => JSON.parse(r.body).type)
      .sort();
    expect(types).toEqual(["customer.joined", "reward.redeemed", "visit.credited"]);
    expect(mine().every((r) => r.verified)).toBe(true);
    const visit = mine().find((r) => JSON.parse(r.body).type === "visit.credited")!;
    expect(visit.id).toBe(`msg_${first.body.scanId}`);
    expect(JSON.parse(visit.body).data).toMatchObject({
      visitId: first.body.scanId,
      points: 10,
      balance: 10,
      method: "rotating",
    });
    // Each event once: nothing more arrives, and the log says delivered, one try each. The receiver records a request
    // before it answers, and the log is written once the answer is back: wait for the log, not for the receiver.
    await eventually(
      async () => (await deliveriesOf(owner, shop.id, hook.id)).filter((d) => d.status === "delivered").length,
    ).toBe(3);
    const log = await deliveriesOf(owner, shop.id, hook.id);
    expect(log).toHaveLength(3);
    expect(log.every((d) => d.status === "delivered" && d.attempts.length === 1)).toBe(true);
    expect(new Set(mine().map((r) => r.id)).size).toBe(3);
  });

  it("a receiver failing 3 times gets the event on the 4th try; the log shows all four; « Renvoyer » sends it again", async () => {
    const { shop, owner } = await shopWithOwner(t, {
      name: "Épicerie Têtue",
      rules: { mode: "points", pointsPerVisit: 10 },
    });
    const hook = await subscribe(owner, shop.id, "/flaky", ["visit.credited"]);
    const customer = await signedIn(t);
    const { body } = await scan(customer.client, t.deps.db, shop.id);
    expect(body.outcome).toBe("accepted");

    await eventually(async () => (await deliveriesOf(owner, shop.id, hook.id))[0]?.status, { timeout: 60_000 }).toBe(
      "delivered",
    );
    const [delivery] = await deliveriesOf(owner, shop.id, hook.id);
    expect(delivery!.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 503],
      [2, 503],
      [3, 503],
      [4, 204],
    ]);
    const tries = receiver.received.filter((r) => r.path === "/flaky" && r.id === `msg_${body.scanId}`);
    expect(tries).toHaveLength(4);
    expect(tries.every((r) => r.verified)).toBe(true);
    // Every try carries the same id (the receiver deduplicates on it) and its own timestamp and signature.
    expect(new Set(tries.map((r) => r.id)).size).toBe(1);

    const resend = await owner.client.request(
      `/api/backoffice/shops/${shop.id}/webhooks/${hook.id}/deliveries/${delivery!.id}/resend`,
      { method: "POST" },
    );
    expect(resend.status).toBe(200);
    expect((await resend.json()).attempt).toMatchObject({ attempt: 5, ok: true, statusCode: 204 });
    const [after] = await deliveriesOf(owner, shop.id, hook.id);
    expect(after!.attempts.at(-1)).toMatchObject({ attempt: 5, manual: true });
  });

  it("a delivery left pending with no job (its process died between two tries) is resumed by the sweep, once", async () => {
    const { shop, owner } = await shopWithOwner(t, { name: "Épicerie Orpheline" });
    const hook = await subscribe(owner, shop.id, "/orphan", ["visit.credited"]);
    const eventId = `evt_${newKey()}`;
    const [row] = (
      await t.deps.db.execute<{ id: string }>(sql`
        insert into webhook_deliveries (endpoint_id, shop_id, event_id, event_type, payload, status, attempts, last_attempt_at)
        values (${hook.id}, ${shop.id}, ${eventId}, 'visit.credited', ${JSON.stringify({ type: "visit.credited" })}::jsonb,
                'pending', 1, now() - interval '10 minutes')
        returning id`)
    ).rows;
    const first = await sweepDeliveries(t.deps);
    expect(first.resumed).toBeGreaterThanOrEqual(1);
    await eventually(async () => (await deliveriesOf(owner, shop.id, hook.id))[0]?.status).toBe("delivered");
    const [delivery] = await deliveriesOf(owner, shop.id, hook.id);
    expect(delivery?.id).toBe(row?.id);
    expect(delivery?.attempts.map((a) => a.attempt)).toEqual([2]);
    // Delivered, or with its job waiting: never resumed twice.
    const again = await sweepDeliveries(t.deps);
    expect(again.resumed).toBe(0);
    expect(receiver.received.filter((r) => r.path === "/orphan" && r.verified)).toHaveLength(1);
  });

  it("a lot won at the shop's wheel reaches the receiver once as contest.won", async () => {
    const { shop, owner } = await shopWithOwner(t, { name: "Roue Gagnante" });
    await subscribe(owner, shop.id, "/games", ["contest.won"]);
    const lot = await owner.client.request(`/api/backoffice/shops/${shop.id}/prize-lots`, {
      json: {
        name: "Tarte offerte",
        description: "Une tarte",
        valueCents: 900,
        quantity: 3,
        handover: "counter",
        claimDays: 15,
      },
    });
    expect(lot.status).toBe(201);
    const lotId = (await lot.json()).lot.id;
    const created = await owner.client.request(`/api/backoffice/shops/${shop.id}/contests`, {
      json: {
        title: "Grande roue",
        kind: "wheel",
        spinPeriod: "contest",
        eligibility: "confirmed",
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: new Date(Date.now() + 86_400_000).toISOString(),
        prizes: [{ lotId, oddsBp: 10_000 }],
      },
    });
    expect(created.status).toBe(201);
    const wheel = (await created.json()).contest;
    expect(
      (await owner.client.request(`/api/backoffice/shops/${shop.id}/contests/${wheel.id}/schedule`, { method: "POST" }))
        .status,
    ).toBe(200);
    const player = await signedIn(t);
    const spin = await player.client.request(`/api/contests/${wheel.id}/spin`, { json: {} });
    expect((await spin.json()).won).toBe(true);
    const games = () => receiver.received.filter((r) => r.path === "/games");
    await eventually(() => games().length).toBe(1);
    expect(games()[0]!.verified).toBe(true);
    expect(JSON.parse(games()[0]!.body)).toMatchObject({
      type: "contest.won",
      data: { contestTitle: "Grande roue", lotName: "Tarte offerte" },
    });
  });

  it("refuses a private or plain-http address that the operator does not trust; another shop's log is not found", async () => {
    const { shop, owner } = await shopWithOwner(t);
    for (const url of [
      "http://example.org/hook",
      "https://127.0.0.1/hook",
      "https://10.0.0.8/hook",
      "https://[::1]/x",
    ]) {
      const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/webhooks`, {
        json: { url, events: ["visit.credited"] },
      });
      expect(res.status, url).toBe(400);
      expect((await res.json()).message).toContain("Adresse refusée");
    }
    const ok = await owner.client.request(`/api/backoffice/shops/${shop.id}/webhooks`, {
      json: { url: "https://hooks.example.org/fidele", events: ["contest.won"] },
    });
    expect(ok.status).toBe(201);
    const { webhook } = await ok.json();
    const other = await shopWithOwner(t);
    const res = await other.owner.client.request(
      `/api/backoffice/shops/${other.shop.id}/webhooks/${webhook.id}/deliveries`,
    );
    expect(res.status).toBe(404);
  });
});
