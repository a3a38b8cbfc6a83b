import { execFileSync } from "node:child_process";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiptClaims } from "../../src/server/db/schema/index.ts";
import { eraseAccount } from "../../src/server/modules/accounts/rgpd.service.ts";
import { createTestApp, ROOT, type TestApp } from "../setup/api.ts";
import { newKey, shopWithOwner, signedIn } from "./shops-helpers.ts";

/** Issue 29, item 2: receipt codes signed offline by the till (scripts/receipt-code.mjs), spent once. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const SCRIPT = path.join(ROOT, "scripts/receipt-code.mjs");

/** The reference script, run as a till vendor would. */
function tillCode(opts: { key: string; shop: string; receipt: string; amount: string; at?: number }) {
  const argv = ["--key", opts.key, "--shop", opts.shop, "--receipt", opts.receipt, "--amount", opts.amount];
  if (opts.at !== undefined) argv.push("--at", String(opts.at));
  argv.push("--url", "http://fidele.test");
  const [code, url] = execFileSync(process.execPath, [SCRIPT, ...argv], { encoding: "utf8" })
    .trim()
    .split("\n");
  return { code: code!, url: url! };
}

async function receiptShop() {
  const { shop, owner } = await shopWithOwner(t, {
    name: "Boulangerie Sucre",
    rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 20 },
  });
  const settings = (await (await owner.client.request(`/api/backoffice/shops/${shop.id}/card`)).json()).card;
  const { summary: _s, shop: _shop, adjustmentCap: _c, rewardsOffered: _r, hasReceiptKey: _k, ...rules } = settings;
  const put = await owner.client.request(`/api/backoffice/shops/${shop.id}/card`, {
    method: "PUT",
    json: { ...rules, earnBy: "amount", pointsPerEuro: 1, amountRounding: "down", receiptWindowMinutes: 60 },
  });
  expect(put.status).toBe(200);
  const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/receipt-key`, { method: "POST" });
  expect(res.status).toBe(200);
  const key = await res.json();
  return {
    shop,
    owner,
    key: key as { receiptKey: string; shopCode: string; windowMinutes: number; example: { code: string } },
  };
}

const claim = (client: ReturnType<TestApp["client"]>, code: string, idempotencyKey = newKey()) =>
  client.request("/api/cards/receipt", { json: { code, idempotencyKey } });

describe("receipt codes", () => {
  it("a code made by the reference script credits its amount's points; the server's example matches the script", async () => {
    const { key } = await receiptShop();
    const at = Math.floor(Date.now() / 1000);
    const { code, url } = tillCode({ key: key.receiptKey, shop: key.shopCode, receipt: "T-1001", amount: "23,90", at });
    expect(url).toBe(`http://fidele.test/ticket?c=${encodeURIComponent(code)}`);
    // The server's own example for the owner is the same scheme.
    const example = key.example.code.split(".");
    expect(
      tillCode({
        key: key.receiptKey,
        shop: key.shopCode,
        receipt: "EXEMPLE-1",
        amount: "12.50",
        at: Number(example[4]),
      }).code,
    ).toBe(key.example.code);

    const { client } = await signedIn(t);
    const res = await claim(client, code);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ outcome: "accepted", delta: 23, amountCents: 2390, card: { balance: 23 } });
  });

  it("50 concurrent claims of one code (by 50 shoppers) credit exactly once", async () => {
    const { shop, key } = await receiptShop();
    const { code } = tillCode({ key: key.receiptKey, shop: key.shopCode, receipt: "T-2002", amount: "10" });
    const shoppers = await Promise.all(Array.from({ length: 50 }, () => signedIn(t)));
    const answers = await Promise.all(shoppers.map(async (s) => (await claim(s.client, code)).json()));
    const outcomes = answers.map((a) => a.outcome);
    expect(outcomes.filter((o) => o === "accepted")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "receipt_used")).toHaveLength(49);
    expect(answers.find((a) => a.outcome === "receipt_used").message).toBe(
      "Ce ticket de Boulangerie Sucre a déjà été utilisé : un ticket ne compte qu'une fois.",
    );
    const spent = await t.deps.db.select().from(receiptClaims).where(eq(receiptClaims.shopId, shop.id));
    expect(spent).toHaveLength(1);
  });

  it("the same shopper's retry with the same key replays; a second claim with another key is refused", async () => {
    const { key } = await receiptShop();
    const { code } = tillCode({ key: key.receiptKey, shop: key.shopCode, receipt: "T-3003", amount: "5" });
    const { client } = await signedIn(t);
    const k = newKey();
    expect((await (await claim(client, code, k)).json()).outcome).toBe("accepted");
    const replay = await claim(client, code, k);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await (await claim(client, code)).json()).outcome).toBe("receipt_used");
  });

  it("an erased account's claim stays spent but no longer names them", async () => {
    const { shop, key } = await receiptShop();
    const { code } = tillCode({ key: key.receiptKey, shop: key.shopCode, receipt: "T-4004", amount: "8" });
    const first = await signedIn(t);
    expect((await (await claim(first.client, code)).json()).outcome).toBe("accepted");
    await eraseAccount(t.deps, first.user.id, { purge: true });
    const spent = await t.deps.db.select().from(receiptClaims).where(eq(receiptClaims.shopId, shop.id));
    expect(spent.map((r) => r.userId)).toEqual([null]);
    const second = await signedIn(t);
    expect((await (await claim(second.client, code)).json()).outcome).toBe("receipt_used");
  });

  it("refused after the shop's window; a forged or re-keyed code is refused; forgeries are throttled", async () => {
    const { owner, shop, key } = await receiptShop();
    const { client } = await signedIn(t);
    const old = tillCode({
      key: key.receiptKey,
      shop: key.shopCode,
      receipt: "T-4004",
      amount: "8",
      at: Math.floor(Date.now() / 1000) - 61 * 60,
    });
    const late = await (await claim(client, old.code)).json();
    expect(late).toMatchObject({ outcome: "receipt_expired", accepted: false, delta: 0 });
    expect(late.message).toBe("Ce ticket de Boulangerie Sucre est trop ancien : son code ne peut plus être utilisé.");

    const good = tillCode({ key: key.receiptKey, shop: key.shopCode, receipt: "T-4005", amount: "8" });
    // A forged amount: the signature no longer matches.
    const forged = good.code.replace(".800.", ".80000.");
    expect((await (await claim(client, forged)).json()).outcome).toBe("invalid_code");
    // Signed with another key.
    const stranger = tillCode({ key: "A".repeat(43), shop: key.shopCode, receipt: "T-4006", amount: "8" });
    expect((await (await claim(client, stranger.code)).json()).outcome).toBe("invalid_code");
    // The owner renews the key: codes of the old key stop counting.
    await owner.client.request(`/api/backoffice/shops/${shop.id}/receipt-key`, { method: "POST" });
    expect((await (await claim(client, good.code)).json()).outcome).toBe("invalid_code");

    const attacker = await signedIn(t);
    let last = 0;
    for (let i = 0; i < 21; i++) last = (await claim(attacker.client, forged)).status;
    expect(last).toBe(429);
  });
});
