import { createHmac, randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { eq } from "drizzle-orm";
import { createReward, createShop, createUser } from "../../src/server/db/factories.ts";
import { shops } from "../../src/server/db/schema/index.ts";
import { parseEnv } from "../../src/server/env.ts";
import type { Deps } from "../../src/server/lib/context.ts";
import { createLogger } from "../../src/server/lib/logger.ts";
import { createDeps } from "../../src/server/server.ts";
import { type PushService, startPushService } from "../fixtures/push-service.ts";
import { startRoundRobinProxy } from "../fixtures/round-robin-proxy.ts";
import { type ServerProcess, spawnServer, waitHealthy } from "../setup/api.ts";
import { createScratchDatabase } from "../setup/scratch-db.ts";
import { newKey, tokenFor } from "./shops-helpers.ts";
import { eventually } from "../setup/eventually.ts";

/**
 * Several processes are one Fidèle (ADR 0038): two server processes on one PostgreSQL, no VAPID keys given, behind
 * a round-robin proxy; a shopper's and an owner's day goes through it, each step landing on either process. The
 * device subscribed through one process gets its pushes from both, signed with the one key it subscribed with.
 */
const url = inject("testDatabaseUrl");
const APP_URL = "http://fidele.test";
const servers: ServerProcess[] = [];
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
let proxy: Awaited<ReturnType<typeof startRoundRobinProxy>> | undefined;
let deps: Deps | undefined;
let ps: PushService | undefined;
let caFile: string | undefined;
let secret = "";

const cookieFor = async (userId: string) => {
  const session = await (await deps!.auth.$context).internalAdapter.createSession(userId);
  return `fidele.session_token=${encodeURIComponent(`${session.token}.${createHmac("sha256", secret).update(session.token).digest("base64")}`)}`;
};

async function call(cookie: string, pathname: string, init: { method?: string; json?: unknown } = {}) {
  const res = await fetch(`${proxy!.url}${pathname}`, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers: { cookie, origin: APP_URL, ...(init.json === undefined ? {} : { "content-type": "application/json" }) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  return { res, servedBy: Number(res.headers.get("x-served-by")) };
}

describe.skipIf(!url)("a day through two processes behind a round-robin proxy (PostgreSQL pass)", () => {
  beforeAll(async () => {
    scratch = await createScratchDatabase(url, "day2p");
    ps = await startPushService();
    caFile = path.join(tmpdir(), `fidele-push-ca-${process.pid}-${randomBytes(3).toString("hex")}.pem`);
    writeFileSync(caFile, ps.cert);
    secret = randomBytes(32).toString("hex");
    // No VAPID_*: each process takes the instance's pair from the database.
    const env = {
      DATABASE_URL: scratch.url,
      APP_URL,
      SECRET: secret,
      NODE_EXTRA_CA_CERTS: caFile,
      PUSH_SERVICE_ORIGINS: ps.origin,
      LOG_LEVEL: "info",
    };
    deps = await createDeps(parseEnv({ ...env, SEED_DEMO: "0" }), { logger: createLogger("warn") });
    for (let i = 0; i < 2; i++)
      servers.push(
        await spawnServer({
          ...env,
          DATA_DIR: path.join(tmpdir(), `fidele-day-${i}-${randomBytes(3).toString("hex")}`),
        }),
      );
    await Promise.all(servers.map((s) => waitHealthy(s)));
    proxy = await startRoundRobinProxy(servers);
  });

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await deps?.database.close();
    await ps?.close();
    if (caFile) rmSync(caFile, { force: true });
    await scratch?.drop();
  });

  it("scan, redeem, contest, message with push, export: every step on either process, pushes signed with the one instance key", async () => {
    const owner = await createUser(deps!, { withoutPassword: true });
    const shopper = await createUser(deps!, { withoutPassword: true });
    const shop = await createShop(deps!, { ownerId: owner.id, name: "Épicerie des deux processus" });
    const ownerCookie = await cookieFor(owner.id);
    const shopperCookie = await cookieFor(shopper.id);

    // Both processes give the same VAPID public key (generated once, in the database).
    const keys = new Map<number, string>();
    for (let i = 0; i < 4; i++) {
      const { res, servedBy } = await call(shopperCookie, "/api/messages/preferences");
      expect(res.status).toBe(200);
      keys.set(servedBy, ((await res.json()) as { vapidPublicKey: string }).vapidPublicKey);
    }
    expect([...keys.keys()].sort()).toEqual([0, 1]);
    expect(new Set(keys.values()).size).toBe(1);
    const publicKey = [...keys.values()][0]!;

    // The shopper scans the shop's code (twice over the day: both processes credit the one card).
    for (let i = 0; i < 2; i++) {
      const { scanUid, token } = await tokenFor(deps!.db, shop.id);
      const { res } = await call(shopperCookie, "/api/cards/scan", {
        json: { scanUid, token, idempotencyKey: newKey() },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { accepted: boolean }).accepted).toBe(i === 0);
    }

    // The shopper redeems a reward on one process; the owner validates it at the counter on whichever answers.
    const reward = await createReward(deps!, { shopId: shop.id, title: "Café offert", cost: 1 });
    const redeemed = await call(shopperCookie, `/api/rewards/${reward.slug}/redeem`, {
      json: { idempotencyKey: newKey() },
    });
    expect(redeemed.res.status).toBeLessThan(300);
    const redemptionId = ((await redeemed.res.json()) as { redemption: { id: string } }).redemption.id;
    const validated = await call(ownerCookie, `/api/backoffice/shops/${shop.id}/redemptions/${redemptionId}/validate`, {
      method: "POST",
    });
    expect(validated.res.status).toBe(200);
    const mine = await call(shopperCookie, `/api/redemptions/${redemptionId}`);
    expect(JSON.stringify(await mine.res.json())).toContain('"validated"');

    // A contest: the owner schedules a draw for customers; the shopper (a customer since the scan) enters once.
    await deps!.db
      .update(shops)
      .set({
        legal: {
          legalName: "Épicerie SAS",
          legalForm: "SAS",
          vatNumber: null,
          shareCapital: "1 000 €",
          rcs: "RCS Lyon 1",
          legalAddress: "1 rue des Processus, 69001 Lyon",
          director: "Camille Deux",
          contactEmail: "contact@epicerie.example",
        },
      })
      .where(eq(shops.id, shop.id));
    const lot = await call(ownerCookie, `/api/backoffice/shops/${shop.id}/prize-lots`, {
      json: { name: "Panier garni", valueCents: 2500, quantity: 1, handover: "counter", claimDays: 15 },
    });
    expect(lot.res.status).toBe(201);
    const lotId = ((await lot.res.json()) as { lot: { id: string } }).lot.id;
    const created = await call(ownerCookie, `/api/backoffice/shops/${shop.id}/contests`, {
      json: {
        title: "Tirage du marché",
        kind: "draw",
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: new Date(Date.now() + 86_400_000).toISOString(),
        prizes: [{ lotId, quantity: 1 }],
      },
    });
    expect(created.res.status).toBe(201);
    const contestId = ((await created.res.json()) as { contest: { id: string } }).contest.id;
    const scheduled = await call(ownerCookie, `/api/backoffice/shops/${shop.id}/contests/${contestId}/schedule`, {
      method: "POST",
    });
    expect(scheduled.res.status).toBe(200);
    const entries = [
      await call(shopperCookie, `/api/contests/${contestId}/enter`, { json: {} }),
      await call(shopperCookie, `/api/contests/${contestId}/enter`, { json: {} }),
    ];
    expect(entries.map((e) => e.res.status)).toEqual([201, 409]);
    expect(new Set(entries.map((e) => e.servedBy)).size).toBe(2);

    // Push: accepted, then the device subscribes through whichever process answers.
    expect(
      (
        await call(shopperCookie, "/api/messages/preferences", {
          method: "PUT",
          json: { shopId: null, channel: "push", granted: true },
        })
      ).res.status,
    ).toBe(200);
    const device = ps!.newDevice();
    const subscribed = await call(shopperCookie, "/api/messages/devices", {
      json: { deviceId: device.deviceId, subscription: device.subscription },
    });
    expect(subscribed.res.status).toBe(201);

    // The owner sends two messages; round robin puts the two compositions on the two processes.
    const sentBy = new Set<number>();
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { res, servedBy } = await call(ownerCookie, `/api/backoffice/shops/${shop.id}/messages`, {
        json: { title: `Arrivage ${i + 1}`, body: "Des fraises ce matin", push: true, segment: { kind: "all" } },
      });
      expect(res.status).toBe(201);
      sentBy.add(servedBy);
      ids.push(((await res.json()) as { message: { id: string } }).message.id);
    }
    await eventually(() =>
      ids.every((id) => ps!.for(device.pushId).some((r) => (r.payload as { id?: string }).id === id)),
    ).toBe(true);
    // Every push the device got (the welcome one too) is signed with the key it subscribed with.
    const got = ps!.for(device.pushId);
    expect(got.length).toBeGreaterThanOrEqual(2);
    for (const push of got) expect(push.authorization).toContain(`k=${publicKey}`);
    // Sent by both processes (each process logs the slices it sends).
    const senders = servers.flatMap((s, i) =>
      ids.some((id) => s.stdout().includes(`"messageId":"${id}"`)) ? [i] : [],
    );
    expect(senders.length).toBeGreaterThanOrEqual(1);

    // The shopper reads the inbox, from either process.
    const inbox = await call(shopperCookie, "/api/messages/inbox");
    expect(inbox.res.status).toBe(200);
    expect(JSON.stringify(await inbox.res.json())).toContain("Arrivage 2");

    // The owner exports the customers: the shopper is there.
    const exported = await call(ownerCookie, "/api/backoffice/customers/export.csv");
    expect(exported.res.status).toBe(200);
    expect(await exported.res.text()).toContain(shopper.email);

    // Every step went through both processes, and the request lines name users by id only.
    expect(new Set(proxy!.served)).toEqual(new Set([0, 1]));
    const lines = servers.flatMap((s) =>
      s
        .stdout()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    );
    expect(lines.some((l) => l.msg === "request" && l.userId === shopper.id)).toBe(true);
    expect(lines.some((l) => l.msg === "request" && l.shopId === shop.id && l.userId === owner.id)).toBe(true);
    expect(servers.some((s) => s.stdout().includes(shopper.email))).toBe(false);
  });
});
