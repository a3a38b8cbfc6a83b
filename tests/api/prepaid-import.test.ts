import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFile } from "../../bench/import-file.ts";
import { addStaff } from "../../src/server/db/factories.ts";
import { cards, importInvitations, user } from "../../src/server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { findLedgerMismatches, findPrepaidMismatches } from "../setup/ledger.ts";
import { newKey, shopWithOwner, signedIn } from "./shops-helpers.ts";

/**
 * Issue 28 item 4 (ADR 0049): a shop imports its former customers and balances from a CSV. The preview says line by
 * line, in French, what would be created, what is a duplicate and what is wrong; nothing makes an account; each
 * valid line waits on a claim code, and claiming credits the balances once. Speed: bench/import.ts.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Preview = {
  counts: { ok: number; duplicate: number; error: number };
  lines: { line: number; status: string; summary: string | null; messages: string[] }[];
};

describe("importing a shop's customers and balances", () => {
  it("previews a 10,000-line file with errors line by line, imports what is valid, and a customer claims their balance once", async () => {
    const { shop, owner } = await shopWithOwner(t, { rules: { mode: "points", pointsPerVisit: 10 } });
    const base = `/api/backoffice/shops/${shop.id}`;
    const tag = newKey().slice(0, 8);
    const { csv, expected } = importFile(10_000, tag);
    const started = performance.now();
    const res = await owner.client.request(`${base}/imports/preview`, { json: { csv } });
    // Printed, not asserted (a loaded machine is no failure): bench/import.ts holds the < 5 s budget.
    process.stdout.write(`import preview of 10,000 lines: ${Math.round(performance.now() - started)} ms\n`);
    const preview = (await res.json()) as Preview;
    expect(res.status, JSON.stringify(preview).slice(0, 300)).toBe(200);
    expect(preview.counts).toEqual(expected);
    expect(preview.lines.find((l) => l.line === 11)).toEqual({
      line: 11,
      status: "error",
      summary: null,
      messages: ["Adresse e-mail invalide : « pas-une-adresse-10 »."],
    });
    expect(preview.lines.find((l) => l.line === 6)?.messages).toEqual(["Fin de validité déjà passée : 01/01/2020."]);
    expect(preview.lines.find((l) => l.line === 8)?.messages).toEqual([
      "Rien à reprendre : ni points ni solde prépayé.",
    ]);
    expect(preview.lines.find((l) => l.line === 4)).toMatchObject({
      status: "duplicate",
      messages: ["Même adresse que la ligne 3 : ligne ignorée."],
    });
    expect(preview.lines.find((l) => l.line === 3)).toMatchObject({ status: "ok" });
    expect(preview.lines.find((l) => l.line === 3)?.summary?.replace(/\s/g, " ")).toBe(
      "Prénom2 Nom 2 — 3 points, Carnet de 10 coupes : 4 unités",
    );

    const imported = await owner.client.request(`${base}/imports`, { json: { csv } });
    expect(imported.status).toBe(201);
    const { batchId, counts } = (await imported.json()) as { batchId: string; counts: Record<string, number> };
    expect(counts).toEqual({ created: expected.ok, duplicate: expected.duplicate, error: expected.error });
    // Nothing made an account, nothing was credited yet.
    // (Other files' tests make accounts meanwhile on a shared database: look for the file's own addresses.)
    expect(
      await t.deps.db
        .select({ id: user.id })
        .from(user)
        .where(like(user.email, `client-${tag}-%`)),
    ).toEqual([]);
    expect(await t.deps.db.select().from(cards).where(eq(cards.shopId, shop.id))).toEqual([]);
    // A second import of the same file finds every valid line already waiting.
    const again = (await (await owner.client.request(`${base}/imports/preview`, { json: { csv } })).json()) as Preview;
    expect(again.counts.ok).toBe(0);

    const list = (await (
      await owner.client.request(`${base}/imports/invitations?batchId=${batchId}&limit=20000`)
    ).json()) as { invitations: { line: number; code: string; email: string; claimed: boolean }[] };
    expect(list.invitations).toHaveLength(expected.ok);
    const line3 = list.invitations.find((i) => i.line === 3)!;
    expect(line3.code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);

    // The importer cannot claim a line themselves.
    expect((await owner.client.request("/api/prepaid/claim", { json: { code: line3.code } })).status).toBe(403);
    const customer = await signedIn(t, { email: line3.email });
    const claims = await Promise.all(
      Array.from({ length: 5 }, () => customer.client.request("/api/prepaid/claim", { json: { code: line3.code } })),
    );
    expect(claims.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const [card] = await t.deps.db.select().from(cards).where(eq(cards.userId, customer.user.id));
    expect(card).toMatchObject({ shopId: shop.id, balance: 3, lifetime: 0 });
    const mine = (await (await customer.client.request("/api/prepaid/mine")).json()) as {
      holdings: { title: string; balanceLabel: string; lastDay: string }[];
    };
    expect(mine.holdings.map((h) => [h.title, h.balanceLabel.replace(/\s/g, " "), h.lastDay])).toEqual([
      ["Carnet de 10 coupes", "4 unités", "31 décembre 2030"],
    ]);
    const [row] = await t.deps.db
      .select()
      .from(importInvitations)
      .where(and(eq(importInvitations.batchId, batchId), eq(importInvitations.line, 3)));
    expect(row?.claimedBy).not.toBeNull();
    expect(await findLedgerMismatches(t.deps.db, shop.id)).toEqual([]);
    expect(await findPrepaidMismatches(t.deps.db, shop.id)).toEqual([]);
  });

  it("a file without the expected header answers in French; staff cannot import", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const base = `/api/backoffice/shops/${shop.id}`;
    const res = await owner.client.request(`${base}/imports/preview`, { json: { csv: "nom,prénom\nA,B\n" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/^La première ligne doit nommer les colonnes/);
    const staff = await signedIn(t);
    await addStaff(t.deps, shop.id, staff.user.id);
    expect((await staff.client.request(`${base}/imports/preview`, { json: { csv: "points\n3\n" } })).status).toBe(403);
  });
});
