import { createHmac, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { importCodeKey, posterToken, rotatingToken, timeStep } from "../../src/domain/loyalty/scan-code.ts";
import type { Db } from "../../src/server/db/client.ts";
import { type CreateShopInput, createShop } from "../../src/server/db/factories.ts";
import { shops } from "../../src/server/db/schema/index.ts";
import type { TestApp } from "../setup/api.ts";

/** Helpers for the shop, card and back-office API tests. */

export const newKey = () => randomUUID();

export async function codeKeyOf(db: Db, shopId: string) {
  const [shop] = await db.select({ secret: shops.codeSecret, scanUid: shops.scanUid }).from(shops).where(eq(shops.id, shopId));
  if (!shop) throw new Error(`no shop ${shopId}`);
  return { key: await importCodeKey(shop.secret), scanUid: shop.scanUid };
}

/** The token the counter screen shows at `atMs` (now by default). */
export async function tokenFor(db: Db, shopId: string, atMs = Date.now()) {
  const { key, scanUid } = await codeKeyOf(db, shopId);
  return { scanUid, token: await rotatingToken(key, scanUid, timeStep(atMs)) };
}

export async function posterFor(db: Db, shopId: string) {
  const { key, scanUid } = await codeKeyOf(db, shopId);
  return { scanUid, poster: await posterToken(key, scanUid) };
}

export type Client = ReturnType<TestApp["client"]>;

/**
 * A signed-in browser of a fresh user. The session is opened directly (as a
 * sign-in would, with the same signed cookie) to skip the password hash: these
 * tests are about shops, not sign-in.
 */
export async function signedIn(t: TestApp, input: Parameters<TestApp["createUser"]>[0] = {}) {
  const user = await t.createUser({ withoutPassword: true, ...input });
  const client = t.client();
  const ctx = await t.deps.auth.$context;
  const session = await ctx.internalAdapter.createSession(user.id);
  const signature = createHmac("sha256", t.env.SECRET).update(session.token).digest("base64");
  client.jar.set("fidele.session_token", encodeURIComponent(`${session.token}.${signature}`));
  return { user, client };
}

/** The signed-in person's personal code (« Ma carte client »), as the counter reads it. */
export const personalCodeOf = async (client: Client) =>
  ((await (await client.request("/api/cards/personal-code")).json()) as { personalCode: { code: string } }).personalCode
    .code;

/** A shop with its owner signed in. */
export async function shopWithOwner(t: TestApp, input: Omit<CreateShopInput, "ownerId"> = {}) {
  const owner = await signedIn(t);
  const shop = await createShop(t.deps, { ownerId: owner.user.id, ...input });
  return { shop, owner };
}

export async function scan(client: Client, db: Db, shopId: string, extra: { key?: string; deviceId?: string; atMs?: number } = {}) {
  const { scanUid, token } = await tokenFor(db, shopId, extra.atMs);
  const res = await client.request("/api/cards/scan", {
    json: { scanUid, token, idempotencyKey: extra.key ?? newKey(), ...(extra.deviceId ? { deviceId: extra.deviceId } : {}) },
  });
  return { res, body: (await res.json()) as ScanBody };
}

export type ScanBody = {
  scanId: string;
  outcome: string;
  accepted: boolean;
  message: string;
  card: { id: string; balance: number; lifetime: number } | null;
  delta: number;
  multiplier: number;
  nextAt: string | null;
  scannedAt: string;
};
