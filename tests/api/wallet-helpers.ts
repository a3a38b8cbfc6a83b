import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { createReward, type CreateShopInput } from "../../src/server/db/factories.ts";
import { shops } from "../../src/server/db/schema/index.ts";
import type { TestApp } from "../setup/api.ts";
import { type Client, scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

/** Helpers of the wallet tests (issue 26). */

/** A tiny PNG (1×1, red): a shop's logo. */
export const RED_PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/**
 * A shop with a PNG logo, a pinned position and a reward at 5, and a shopper signed in whose first visit opened a
 * card there.
 */
export async function cardAtShop(t: TestApp, input: Omit<CreateShopInput, "ownerId"> = {}) {
  const { shop, owner } = await shopWithOwner(t, { name: "Boulangerie Pass", lat: 45.764, lng: 4.8357, ...input });
  await t.deps.db
    .update(shops)
    .set({ logo: `data:image/png;base64,${RED_PIXEL_PNG}` })
    .where(eq(shops.id, shop.id));
  await createReward(t.deps, { shopId: shop.id, title: "Croissant offert", cost: 5 });
  const { client, user } = await signedIn(t);
  const first = await scan(client, t.deps.db, shop.id);
  if (!first.body.card) throw new Error(`no card: ${JSON.stringify(first.body)}`);
  return { shop, owner, client, user, cardId: first.body.card.id };
}

export type PassFiles = Record<string, Uint8Array>;

export const passJsonOf = (files: PassFiles) =>
  JSON.parse(Buffer.from(files["pass.json"]!).toString("utf8")) as {
    serialNumber: string;
    authenticationToken: string;
    voided?: boolean;
    storeCard: Record<
      "primaryFields" | "secondaryFields" | "auxiliaryFields" | "backFields",
      { key: string; label?: string; value: string }[]
    >;
    barcodes: { message: string; altText: string }[];
    [key: string]: unknown;
  };

/** The card's pass as the card page downloads it: its files, and its pass.json. */
export async function downloadPass(client: Client, cardId: string) {
  const res = await client.request(`/api/wallet/cards/${cardId}/apple.pkpass`);
  if (res.status !== 200) throw new Error(`pass download: ${res.status} ${await res.text()}`);
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  return { res, files, pass: passJsonOf(files) };
}

/**
 * An iPhone calling the PassKit web service (/api/wallet/apple/v1…): no cookie, no Origin header, the pass's token
 * when it has one (`Authorization: ApplePass …`).
 */
export function appleDevice(t: TestApp, token: string | null) {
  return (path: string, init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (token) headers.authorization = `ApplePass ${token}`;
    if (init.json !== undefined) headers["content-type"] = "application/json";
    return t.app.request(
      new URL(`/api/wallet/apple/v1${path}`, t.env.APP_URL).toString(),
      {
        method: init.method ?? (init.json !== undefined ? "POST" : "GET"),
        headers,
        body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
      },
      { incoming: { socket: { remoteAddress: "203.0.113.7", remotePort: 40000, remoteFamily: "IPv4" } } },
    );
  };
}
