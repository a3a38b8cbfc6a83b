import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { verifyDraw } from "../../src/domain/contests/draw.ts";
import { addDays, localParts, zonedToUtc } from "../../src/domain/loyalty/time.ts";
import { addStaff, grantPoints, recordVisit } from "../../src/server/db/factories.ts";
import { contests, contestWinnings, prizeLots, profiles, shops } from "../../src/server/db/schema/index.ts";
import { drawContest, expireUnclaimed } from "../../src/server/modules/contests/draw.service.ts";
import { forgetEntrySignals } from "../../src/server/modules/contests/one-person.service.ts";
import { createTestApp, ROOT, type ServerProcess, spawnServer, type TestApp, waitHealthy } from "../setup/api.ts";
import { type Client, shopWithOwner, signedIn } from "./shops-helpers.ts";
import { eventually } from "../setup/eventually.ts";
import { sleep } from "../setup/timing.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const lotInput = (over: Record<string, unknown> = {}) => ({
  name: "Croissant offert",
  description: "Un croissant pur beurre",
  valueCents: 120,
  quantity: 10,
  handover: "counter",
  claimDays: 15,
  ...over,
});

async function json<T = Record<string, unknown>>(res: Response) {
  return (await res.json()) as T & { message?: string; code?: string };
}

async function createLot(owner: Client, shopId: string, over: Record<string, unknown> = {}) {
  const res = await owner.request(`/api/backoffice/shops/${shopId}/prize-lots`, { json: lotInput(over) });
  expect(res.status).toBe(201);
  return (await json<{ lot: { id: string; remaining: number } }>(res)).lot;
}

type Owned = { id: string; phase: string; seedCommitment: string | null; startsAt: string; endsAt: string };

/**
 * Open to every confirmed account unless the test says otherwise (the default is customers only, tested in the
 * issue 22 row 3 test below), so players need no visit.
 */
async function createContest(owner: Client, shopId: string, body: Record<string, unknown>) {
  const res = await owner.request(`/api/backoffice/shops/${shopId}/contests`, {
    json: {
      title: "Grand jeu",
      eligibility: "confirmed",
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: new Date(Date.now() + 86_400_000).toISOString(),
      ...body,
    },
  });
  const out = await json<{ contest: Owned }>(res);
  expect(res.status, out.message).toBe(201);
  return out.contest;
}

async function schedule(owner: Client, shopId: string, id: string) {
  const res = await owner.request(`/api/backoffice/shops/${shopId}/contests/${id}/schedule`, { method: "POST" });
  const out = await json<{ contest: Owned }>(res);
  expect(res.status, out.message).toBe(200);
  return out.contest;
}

let nextNetwork = 0;
/** An IPv4 address on a /24 no other player of this file uses (the default random addresses share /24s by chance). */
const ownNetwork = (host = 7) => {
  nextNetwork += 1;
  return `${11 + Math.floor(nextNetwork / 65_536)}.${Math.floor(nextNetwork / 256) % 256}.${nextNetwork % 256}.${host}`;
};

/** A signed-in shopper on a network of their own, or on the one given. */
async function player(over: Parameters<typeof signedIn>[1] & { ip?: string } = {}) {
  const { ip, ...input } = over;
  const p = await signedIn(t, input);
  const client = t.client({ ip: ip ?? ownNetwork() });
  for (const [k, v] of p.client.jar) client.jar.set(k, v);
  return { user: p.user, client };
}

/** Ends a contest now (as time passing would). */
const closeNow = (id: string) =>
  t.deps.db
    .update(contests)
    .set({ endsAt: new Date(Date.now() - 1000), startsAt: new Date(Date.now() - 86_400_000) })
    .where(eq(contests.id, id));

describe("prize lots and contests in the back office", () => {
  it("the owner manages lots; staff may not; another shop's owner gets 404", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const lot = await createLot(owner.client, shop.id);
    expect(lot.remaining).toBe(10);
    const list = await json<{ lots: { id: string; valueLabel: string }[] }>(
      await owner.client.request(`/api/backoffice/shops/${shop.id}/prize-lots`),
    );
    expect(list.lots.map((l) => l.id)).toEqual([lot.id]);
    expect(list.lots[0]!.valueLabel.replace(/\s/g, " ")).toBe("1,20 €");

    const staff = await signedIn(t);
    await addStaff(t.deps, shop.id, staff.user.id);
    expect((await staff.client.request(`/api/backoffice/shops/${shop.id}/prize-lots`)).status).toBe(403);

    const other = await shopWithOwner(t);
    expect((await other.owner.client.request(`/api/backoffice/shops/${shop.id}/prize-lots`)).status).toBe(404);
    const put = await other.owner.client.request(`/api/backoffice/shops/${other.shop.id}/prize-lots/${lot.id}`, {
      method: "PUT",
      json: lotInput(),
    });
    expect(put.status).toBe(404);
    // Using another shop's lot in a contest: refused.
    const res = await other.owner.client.request(`/api/backoffice/shops/${other.shop.id}/contests`, {
      json: {
        kind: "draw",
        title: "Vol",
        startsAt: new Date().toISOString(),
        endsAt: new Date(Date.now() + 3600_000).toISOString(),
        prizes: [{ lotId: lot.id, quantity: 1 }],
      },
    });
    expect(res.status).toBe(400);
  });

  it("no contest can ask for a purchase or points: any cost field is refused", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const lot = await createLot(owner.client, shop.id);
    for (const extra of [{ cost: 10 }, { pointsCost: 5 }, { purchaseRequired: true }]) {
      const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/contests`, {
        json: {
          kind: "draw",
          title: "Jeu payant",
          startsAt: new Date().toISOString(),
          endsAt: new Date(Date.now() + 3600_000).toISOString(),
          prizes: [{ lotId: lot.id }],
          ...extra,
        },
      });
      expect(res.status).toBe(400);
      expect((await json(res)).message).toMatch(/gratuit/);
    }
    const lotWithPrice = await owner.client.request(`/api/backoffice/shops/${shop.id}/prize-lots`, {
      json: lotInput({ price: 2 }),
    });
    expect(lotWithPrice.status).toBe(400);
    const columns = await t.deps.db.execute<{ column_name: string }>(
      sql`select column_name from information_schema.columns where table_name in ('contests', 'contest_entries', 'contest_prizes') and column_name ~ '(cost|price|purchase)'`,
    );
    expect(columns.rows).toEqual([]);
  });
});

describe("the wheel", () => {
  it("100 concurrent spins against a lot with stock 3: exactly 3 wins, stock 0, never below", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const lot = await createLot(owner.client, shop.id, { quantity: 3 });
    const wheel = await createContest(owner.client, shop.id, {
      kind: "wheel",
      spinPeriod: "day",
      prizes: [{ lotId: lot.id, oddsBp: 10_000 }],
    });
    await schedule(owner.client, shop.id, wheel.id);
    const players = await Promise.all(Array.from({ length: 100 }, () => player()));
    const answers = await Promise.all(
      players.map(async (p) => {
        const res = await p.client.request(`/api/contests/${wheel.id}/spin`, { json: {} });
        return { status: res.status, body: await json<{ won: boolean; sliceIndex: number }>(res) };
      }),
    );
    expect(answers.map((a) => a.status).filter((s) => s !== 201)).toEqual([]);
    expect(answers.filter((a) => a.body.won)).toHaveLength(3);
    expect(answers.filter((a) => !a.body.won).every((a) => a.body.sliceIndex === 1)).toBe(true);
    const [row] = await t.deps.db
      .select({ remaining: prizeLots.remaining })
      .from(prizeLots)
      .where(eq(prizeLots.id, lot.id));
    expect(row!.remaining).toBe(0);
    const won = await t.deps.db.select().from(contestWinnings).where(eq(contestWinnings.contestId, wheel.id));
    expect(won).toHaveLength(3);
    expect(new Set(won.map((w) => w.code)).size).toBe(3);

    // Once a day per person: a second spin is refused, in French.
    const again = await players[0]!.client.request(`/api/contests/${wheel.id}/spin`, { json: {} });
    expect(again.status).toBe(409);
    expect((await json(again)).message).toBe("Vous avez déjà joué aujourd'hui : revenez demain !");
  });

  it("issue 25 row 3: the wheel's page tells a player who has played, before any tap, when the next spin is; others may spin", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const lot = await createLot(owner.client, shop.id, { quantity: 50 });
    const daily = await createContest(owner.client, shop.id, {
      kind: "wheel",
      spinPeriod: "day",
      prizes: [{ lotId: lot.id, oddsBp: 2_500 }],
    });
    await schedule(owner.client, shop.id, daily.id);
    const once = await createContest(owner.client, shop.id, {
      kind: "wheel",
      spinPeriod: "contest",
      prizes: [{ lotId: (await createLot(owner.client, shop.id, { quantity: 50 })).id, oddsBp: 2_500 }],
    });
    await schedule(owner.client, shop.id, once.id);
    const [played, other] = await Promise.all([player(), player()]);
    type Page = { wheel: { played: boolean; nextSpinAt: string | null; message: string | null } | null };
    const page = async (client: Client, id: string) => json<Page>(await client.request(`/api/contests/${id}`));

    expect((await page(played.client, daily.id)).wheel).toEqual({ played: false, nextSpinAt: null, message: null });
    for (const id of [daily.id, once.id]) {
      expect((await played.client.request(`/api/contests/${id}/spin`, { json: {} })).status).toBe(201);
    }
    const tomorrow = addDays(localParts(new Date(), "Europe/Paris").date, 1);
    expect((await page(played.client, daily.id)).wheel).toEqual({
      played: true,
      nextSpinAt: zonedToUtc(tomorrow, 0, "Europe/Paris").toISOString(),
      message: "Déjà joué — prochain tour demain à 0 h 00.",
    });
    expect((await page(played.client, once.id)).wheel).toEqual({
      played: true,
      nextSpinAt: null,
      message: "Déjà joué — plus de tour avant la fin de ce jeu.",
    });
    // Another player, and a visitor, are not told they have played.
    expect((await page(other.client, daily.id)).wheel?.played).toBe(false);
    expect((await page(t.client(), daily.id)).wheel).toBeNull();
  });

  it("issue 25 row 7: a win is told in the app's inbox too (unread, linking to the code), never in the shop's sent messages; a loser's inbox stays empty", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const lot = await createLot(owner.client, shop.id, { quantity: 5, name: "Tarte aux pommes" });
    const wheel = await createContest(owner.client, shop.id, {
      kind: "wheel",
      spinPeriod: "contest",
      prizes: [{ lotId: lot.id, oddsBp: 10_000 }],
    });
    await schedule(owner.client, shop.id, wheel.id);
    const winner = await player();
    const spin = await json<{ won: boolean; winning: { code: string } }>(
      await winner.client.request(`/api/contests/${wheel.id}/spin`, { json: {} }),
    );
    expect(spin.won).toBe(true);
    type Inbox = {
      messages: {
        title: string;
        body: string;
        linkUrl: string | null;
        isRead: boolean;
        shop: { name: string } | null;
      }[];
      unread: number;
    };
    const inbox = await json<Inbox>(await winner.client.request("/api/messages/inbox"));
    expect(inbox.unread).toBe(1);
    expect(inbox.messages).toHaveLength(1);
    expect(inbox.messages[0]).toMatchObject({
      title: "Vous avez gagné : Tarte aux pommes",
      linkUrl: "/jeu-concours",
      isRead: false,
      shop: { name: shop.name },
    });
    expect(inbox.messages[0]!.body).toContain(spin.winning.code);
    expect(inbox.messages[0]!.body).toMatch(/avant le \d{1,2} \S+ \d{4}/);
    // Not a shop message: the owner's sent list and quota do not count it.
    const sent = await json<{ messages: unknown[] }>(await owner.client.request(`/api/backoffice/shops/${shop.id}/messages`));
    expect(sent.messages).toEqual([]);
    // A loser (the lot out of stock: its slice loses) is told nothing.
    const gone = await createLot(owner.client, shop.id, { quantity: 1 });
    const lost = await createContest(owner.client, shop.id, {
      kind: "wheel",
      spinPeriod: "contest",
      prizes: [{ lotId: gone.id, oddsBp: 10_000 }],
    });
    await schedule(owner.client, shop.id, lost.id);
    await t.deps.db.update(prizeLots).set({ remaining: 0 }).where(eq(prizeLots.id, gone.id));
    const loser = await player();
    expect((await loser.client.request(`/api/contests/${lost.id}/spin`, { json: {} })).status).toBe(201);
    expect((await json<Inbox>(await loser.client.request("/api/messages/inbox"))).messages).toEqual([]);
  });

  it("a win is told by e-mail with its code; staff hand it over once at the counter; the shopper sees it handed over", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const lot = await createLot(owner.client, shop.id, { quantity: 5, name: "Baguette tradition" });
    const wheel = await createContest(owner.client, shop.id, {
      kind: "wheel",
      spinPeriod: "contest",
      prizes: [{ lotId: lot.id, oddsBp: 10_000 }],
    });
    await schedule(owner.client, shop.id, wheel.id);
    const shopper = await player({ firstName: "Léa", lastName: "Gagnante" });
    const spin = await json<{ won: boolean; winning: { id: string; code: string } }>(
      await shopper.client.request(`/api/contests/${wheel.id}/spin`, { json: { marketingConsent: false } }),
    );
    expect(spin.won).toBe(true);
    const mail = t.lastMail(shopper.user.email, "contest-win");
    expect(mail.subject).toBe("Vous avez gagné : Baguette tradition");
    expect(mail.text).toContain(spin.winning.code);

    const staff = await signedIn(t, { firstName: "Hugo", lastName: "Caisse" });
    await addStaff(t.deps, shop.id, staff.user.id);
    const found = await json<{ winning: { id: string; status: string; lotName: string } }>(
      await staff.client.request(
        `/api/backoffice/shops/${shop.id}/contest-winnings/lookup?code=${encodeURIComponent(`FIDELE-L:${spin.winning.code.toLowerCase()}`)}`,
      ),
    );
    expect(found.winning).toMatchObject({ id: spin.winning.id, status: "to_hand_over", lotName: "Baguette tradition" });
    expect(found.winning).toMatchObject({ winnerName: "Léa", winnerEmail: null });
    const other = await shopWithOwner(t);
    expect(
      (
        await other.owner.client.request(
          `/api/backoffice/shops/${shop.id}/contest-winnings/lookup?code=${spin.winning.code}`,
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await other.owner.client.request(
          `/api/backoffice/shops/${other.shop.id}/contest-winnings/lookup?code=${spin.winning.code}`,
        )
      ).status,
    ).toBe(404);

    const [first, second] = await Promise.all([
      staff.client.request(`/api/backoffice/shops/${shop.id}/contest-winnings/${spin.winning.id}/hand-over`, {
        method: "POST",
      }),
      staff.client.request(`/api/backoffice/shops/${shop.id}/contest-winnings/${spin.winning.id}/hand-over`, {
        method: "POST",
      }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const mine = await json<{ wins: { id: string; status: string; statusLabel: string }[] }>(
      await shopper.client.request("/api/contests/mine"),
    );
    expect(mine.wins[0]).toMatchObject({ id: spin.winning.id, status: "handed_over", statusLabel: "Remis" });
    const list = await json<{ winnings: { id: string; handedOverByName: string }[] }>(
      await owner.client.request(`/api/backoffice/shops/${shop.id}/contest-winnings?q=baguette`),
    );
    expect(list.winnings[0]).toMatchObject({ id: spin.winning.id, handedOverByName: "Hugo Caisse" });
    const csv = await owner.client.request(`/api/backoffice/shops/${shop.id}/contest-winnings/export`);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(await csv.text()).toContain(`${spin.winning.code};Remis;Baguette tradition`);
  });
});

describe("the draw", () => {
  async function drawSetup(participants: number, prizes = 2) {
    const { shop, owner } = await shopWithOwner(t);
    await t.deps.db
      .update(shops)
      .set({
        legal: {
          legalName: "Dupain SARL",
          legalForm: "SARL",
          vatNumber: null,
          shareCapital: "5 000 €",
          rcs: "RCS Lyon 123",
          legalAddress: "3 rue des Fours, 69001 Lyon",
          director: "Marie Dupain",
          contactEmail: "contact@dupain.fr",
        },
      })
      .where(eq(shops.id, shop.id));
    const lot = await createLot(owner.client, shop.id, { quantity: 5, name: "Bûche", valueCents: 3250 });
    const draw = await createContest(owner.client, shop.id, {
      kind: "draw",
      prizes: [{ lotId: lot.id, quantity: prizes }],
    });
    const scheduled = await schedule(owner.client, shop.id, draw.id);
    const players = await Promise.all(Array.from({ length: participants }, () => player()));
    for (const p of players) {
      const res = await p.client.request(`/api/contests/${draw.id}/enter`, { json: {} });
      expect(res.status).toBe(201);
    }
    return { shop, owner, lot, draw: scheduled, players };
  }

  it("publishes the seed's commitment and the règlement at scheduling; staff and unconfirmed accounts cannot enter; one entry each", async () => {
    const { shop, draw, players, lot } = await drawSetup(1);
    expect(draw.seedCommitment).toMatch(/^[0-9a-f]{64}$/);
    const [reserved] = await t.deps.db
      .select({ remaining: prizeLots.remaining })
      .from(prizeLots)
      .where(eq(prizeLots.id, lot.id));
    expect(reserved!.remaining).toBe(3);
    const rules = await json<{ version: number; document: { sections: { id: string; paragraphs: string[] }[] } }>(
      await t.request(`/api/contests/${draw.id}/rules`),
    );
    expect(rules.version).toBe(1);
    expect(rules.document.sections.map((s) => s.id)).toEqual([
      "organiser",
      "dates",
      "participants",
      "free",
      "mechanism",
      "prizes",
      "winners",
      "claim",
      "unclaimed",
      "personal-data",
      "access",
      "claims",
    ]);
    const text = rules.document.sections.flatMap((s) => s.paragraphs).join("\n");
    expect(text).toContain("Dupain SARL");
    expect(text).toContain("Participation gratuite et sans obligation d'achat.");
    expect(text).toContain(draw.seedCommitment!);

    const again = await players[0]!.client.request(`/api/contests/${draw.id}/enter`, { json: {} });
    expect(again.status).toBe(409);
    expect((await json(again)).message).toBe("Vous participez déjà à ce tirage.");
    const staff = await player();
    await addStaff(t.deps, shop.id, staff.user.id);
    const byStaff = await staff.client.request(`/api/contests/${draw.id}/enter`, { json: {} });
    expect(byStaff.status).toBe(403);
    expect((await json(byStaff)).message).toMatch(/personnel/);
    const unconfirmed = await player({ emailVerified: false });
    expect((await unconfirmed.client.request(`/api/contests/${draw.id}/enter`, { json: {} })).status).toBe(403);
    expect((await t.request(`/api/contests/${draw.id}/enter`, { json: {} })).status).toBe(401);
  });

  it("an edit once open is a new dated version of the règlement; v1 stays as it was", async () => {
    const { shop, owner, draw, lot } = await drawSetup(0);
    // The form sends every field: the locked ones as they are.
    const body = {
      kind: "draw",
      title: "Grand jeu prolongé",
      startsAt: draw.startsAt,
      endsAt: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      eligibility: "confirmed",
      prizes: [{ lotId: lot.id, quantity: 2 }],
    };
    const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/contests/${draw.id}`, {
      method: "PUT",
      json: body,
    });
    expect(res.status).toBe(200);
    const v2 = await json<{ version: number; versions: unknown[]; document: { title: string } }>(
      await t.request(`/api/contests/${draw.id}/rules`),
    );
    expect(v2.version).toBe(2);
    expect(v2.versions).toHaveLength(2);
    expect(v2.document.title).toContain("Grand jeu prolongé");
    const v1 = await json<{ document: { title: string } }>(await t.request(`/api/contests/${draw.id}/rules?version=1`));
    expect(v1.document.title).toBe("Règlement du jeu « Grand jeu »");
  });

  it("issue 25 row 6: once open, a change to a locked field is refused by name, never dropped; the same values pass, and the same text publishes no version", async () => {
    const { shop, owner, draw, lot } = await drawSetup(0);
    const url = `/api/backoffice/shops/${shop.id}/contests/${draw.id}`;
    const same = {
      kind: "draw",
      title: "Grand jeu",
      startsAt: draw.startsAt,
      endsAt: draw.endsAt,
      eligibility: "confirmed",
      entriesPerPerson: 1,
      prizes: [{ lotId: lot.id, quantity: 2 }],
    };
    const versions = async () =>
      (await json<{ versions: unknown[] }>(await t.request(`/api/contests/${draw.id}/rules`))).versions.length;

    // Who may play and from when: refused, each named, with the reason on each field.
    const earlier = new Date(Date.parse(draw.startsAt) - 86_400_000).toISOString();
    const refused = await owner.client.request(url, {
      method: "PUT",
      json: { ...same, title: "Grand jeu modifié", startsAt: earlier, eligibility: "customers" },
    });
    expect(refused.status).toBe(409);
    const body = await json<{ fields: Record<string, string> }>(refused);
    expect(body.message).toBe(
      "« Début » et « Qui peut participer » ne peuvent plus changer : le concours est ouvert, le règlement publié engage la boutique.",
    );
    expect(body.fields).toEqual({
      startsAt: "Verrouillé : le concours est ouvert, le règlement publié engage la boutique.",
      eligibility: "Verrouillé : le concours est ouvert, le règlement publié engage la boutique.",
    });
    const more = await owner.client.request(url, {
      method: "PUT",
      json: { ...same, prizes: [{ lotId: lot.id, quantity: 3 }] },
    });
    expect(more.status).toBe(409);
    expect((await json(more)).message).toMatch(/^« Lots à gagner » ne peut plus changer/);
    // Nothing of a refused edit was written, not even its title.
    const [row] = await t.deps.db.select().from(contests).where(eq(contests.id, draw.id));
    expect(row).toMatchObject({ title: "Grand jeu", eligibility: "confirmed" });
    expect(row!.startsAt.toISOString()).toBe(draw.startsAt);
    expect(await versions()).toBe(1);

    // The same values, with a description (not in the règlement): saved, and the règlement keeps its one version.
    const described = await owner.client.request(url, {
      method: "PUT",
      json: { ...same, description: "Un tirage pour fêter le printemps." },
    });
    expect(described.status, (await json(described.clone())).message).toBe(200);
    expect((await json<{ contest: { description: string } }>(described)).contest.description).toBe(
      "Un tirage pour fêter le printemps.",
    );
    // The form has no seconds: the same minute is the same start and the same end, the end kept as it was.
    const toMinute = (iso: string) => new Date(Math.floor(Date.parse(iso) / 60_000) * 60_000).toISOString();
    const fromForm = { ...same, startsAt: toMinute(draw.startsAt), endsAt: toMinute(draw.endsAt) };
    expect((await owner.client.request(url, { method: "PUT", json: fromForm })).status).toBe(200);
    const [kept] = await t.deps.db.select().from(contests).where(eq(contests.id, draw.id));
    expect(kept!.endsAt.toISOString()).toBe(draw.endsAt);
    expect(await versions()).toBe(1);

    // A later end changes the text: version 2.
    const later = new Date(Date.parse(draw.endsAt) + 86_400_000).toISOString();
    expect((await owner.client.request(url, { method: "PUT", json: { ...same, endsAt: later } })).status).toBe(200);
    expect(await versions()).toBe(2);
    const shorter = await owner.client.request(url, { method: "PUT", json: same });
    expect(shorter.status).toBe(409);
    expect((await json(shorter)).message).toBe("Un jeu en cours peut être prolongé, pas raccourci.");
  });

  it("run twice at once, the draw happens exactly once; the published data let anyone recompute the winners", async () => {
    const { shop, owner, draw, players } = await drawSetup(12, 3);
    const early = await owner.client.request(`/api/backoffice/shops/${shop.id}/contests/${draw.id}/draw`, {
      method: "POST",
    });
    expect(early.status).toBe(409);
    await closeNow(draw.id);
    const late = await players[0]!.client.request(`/api/contests/${draw.id}/enter`, { json: {} });
    expect(late.status).toBe(409);

    const results = await Promise.all([
      drawContest({ db: t.deps.db, contestId: draw.id }),
      drawContest({ db: t.deps.db, contestId: draw.id }),
    ]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const won = results.find((r) => r !== null)!;
    expect(won).toHaveLength(3);
    const button = await owner.client.request(`/api/backoffice/shops/${shop.id}/contests/${draw.id}/draw`, {
      method: "POST",
    });
    expect(button.status).toBe(409);
    const rows = await t.deps.db.select().from(contestWinnings).where(eq(contestWinnings.contestId, draw.id));
    expect(rows).toHaveLength(3);

    const published = await json<{
      commitment: string;
      seed: string;
      entrantsHash: string;
      entrants: { ticketId: string; participantId: string }[];
      winnersCount: number;
    }>(await t.request(`/api/contests/${draw.id}/draw`));
    expect(published.entrants).toHaveLength(12);
    expect(JSON.stringify(published.entrants)).not.toContain(players[0]!.user.id);
    const check = await verifyDraw({
      seed: published.seed,
      commitment: published.commitment,
      listHash: published.entrantsHash,
      tickets: published.entrants,
      count: published.winnersCount,
    });
    expect(check.seedMatches && check.listMatches).toBe(true);
    const byRank = [...rows].sort((a, b) => a.drawRank! - b.drawRank!);
    expect(check.sequence.map((s) => s.ticketId)).toEqual(byRank.map((r) => r.entryId));

    // The standalone script finds the same winners.
    const file = path.join(tmpdir(), `draw-${draw.id}.json`);
    writeFileSync(file, JSON.stringify(published));
    const out = execFileSync(process.execPath, [path.join(ROOT, "scripts/verify-draw.mjs"), file], {
      encoding: "utf8",
    });
    expect(out).toContain("graine conforme à l'empreinte publiée : oui");
    expect(out).toContain("liste conforme à son empreinte : oui");
    for (const [i, s] of check.sequence.entries())
      expect(out).toContain(`${i + 1}. ${s.participantId} (ticket ${s.ticketId}) — gagnant`);

    // The public page shows it all; each winner got an e-mail.
    const page = await json<{
      verification: { seed: string; entrantsHash: string; winners: { rank: number; participantId: string }[] };
    }>(await t.request(`/api/contests/${draw.id}`));
    expect(page.verification.seed).toBe(published.seed);
    expect(page.verification.winners.map((w) => w.participantId)).toEqual(check.sequence.map((s) => s.participantId));
  });

  it("issue 25 row 18: the proof page names the signed-in viewer's own pseudonym, nobody else's", async () => {
    const { draw, players } = await drawSetup(4, 1);
    await closeNow(draw.id);
    await drawContest({ db: t.deps.db, contestId: draw.id });
    const [winning] = await t.deps.db.select().from(contestWinnings).where(eq(contestWinnings.contestId, draw.id));
    type Page = { verification: { myParticipantId: string | null; winners: { participantId: string }[] } };
    const winner = players.find((p) => p.user.id === winning!.userId)!;
    const loser = players.find((p) => p.user.id !== winning!.userId)!;
    const mine = await json<Page>(await winner.client.request(`/api/contests/${draw.id}`));
    expect(mine.verification.myParticipantId).toBe(mine.verification.winners[0]!.participantId);
    // A participant who did not win gets their own pseudonym (in the list, not among the winners).
    const theirs = await json<Page>(await loser.client.request(`/api/contests/${draw.id}`));
    expect(theirs.verification.myParticipantId).toMatch(/^p-[0-9a-f]{16}$/);
    expect(theirs.verification.myParticipantId).not.toBe(mine.verification.myParticipantId);
    // Signed out, or signed in without an entry: nobody's.
    expect((await json<Page>(await t.request(`/api/contests/${draw.id}`))).verification.myParticipantId).toBeNull();
    const stranger = await player();
    expect(
      (await json<Page>(await stranger.client.request(`/api/contests/${draw.id}`))).verification.myParticipantId,
    ).toBeNull();
  });

  it("an unclaimed lot passes to the next in the same sequence, logged, exactly once", async () => {
    const { draw } = await drawSetup(5, 1);
    await closeNow(draw.id);
    await drawContest({ db: t.deps.db, contestId: draw.id });
    const [first] = await t.deps.db.select().from(contestWinnings).where(eq(contestWinnings.contestId, draw.id));
    await t.deps.db
      .update(contestWinnings)
      .set({ claimBy: new Date(Date.now() - 1000) })
      .where(eq(contestWinnings.id, first!.id));
    const [a, b] = await Promise.all([expireUnclaimed({ db: t.deps.db }), expireUnclaimed({ db: t.deps.db })]);
    const all = await t.deps.db.select().from(contestWinnings).where(eq(contestWinnings.contestId, draw.id));
    expect(all).toHaveLength(2);
    const old = all.find((w) => w.id === first!.id)!;
    expect(old.status).toBe("redrawn");
    expect(old.note).toMatch(/réattribué/);
    const next = all.find((w) => w.id !== first!.id)!;
    expect(next.drawRank).toBe(1);
    const published = await json<{
      seed: string;
      commitment: string;
      entrantsHash: string;
      entrants: { ticketId: string; participantId: string }[];
    }>(await t.request(`/api/contests/${draw.id}/draw`));
    const { sequence } = await verifyDraw({
      seed: published.seed,
      commitment: published.commitment,
      listHash: published.entrantsHash,
      tickets: published.entrants,
      count: 2,
    });
    expect(next.entryId).toBe(sequence[1]!.ticketId);
    expect(a.length + b.length).toBe(1);
  });

  it("customers-only contests ask for a visit (a card alone is not enough); a points lot is credited at once", async () => {
    const { shop, owner } = await shopWithOwner(t, { rules: { mode: "points" } });
    const lot = await createLot(owner.client, shop.id, { handover: "points", points: 50, name: "50 points" });
    const wheel = await createContest(owner.client, shop.id, {
      kind: "wheel",
      eligibility: "customers",
      spinPeriod: "week",
      prizes: [{ lotId: lot.id, oddsBp: 10_000 }],
    });
    await schedule(owner.client, shop.id, wheel.id);
    const stranger = await player();
    const refused = await stranger.client.request(`/api/contests/${wheel.id}/spin`, { json: {} });
    expect(refused.status).toBe(403);
    expect((await json(refused)).message).toBe(
      "Ce jeu est réservé aux clients de la boutique : faites d'abord enregistrer un passage en boutique.",
    );
    const customer = await player();
    const { cardId } = await grantPoints(t.deps, { shopId: shop.id, userId: customer.user.id, points: 9 });
    expect((await customer.client.request(`/api/contests/${wheel.id}/spin`, { json: {} })).status).toBe(403);
    await recordVisit(t.deps, { shopId: shop.id, userId: customer.user.id, at: new Date() });
    const spin = await json<{ won: boolean }>(
      await customer.client.request(`/api/contests/${wheel.id}/spin`, { json: {} }),
    );
    expect(spin.won).toBe(true);
    const balance = await t.deps.db.execute<{ balance: number }>(sql`select balance from cards where id = ${cardId}`);
    expect(Number(balance.rows[0]!.balance)).toBe(60);
    const mine = await json<{ wins: { status: string }[] }>(await customer.client.request("/api/contests/mine"));
    expect(mine.wins[0]!.status).toBe("handed_over");
  });
});

describe("shoppers' lists and featured pages", () => {
  it("lists open contests with my shops first; a draft is not public; the platform admin pins a featured contest", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const lot = await createLot(owner.client, shop.id);
    const draft = await createContest(owner.client, shop.id, { kind: "draw", prizes: [{ lotId: lot.id }] });
    expect((await t.request(`/api/contests/${draft.id}`)).status).toBe(404);
    expect((await t.request(`/api/contests/${draft.id}/rules`)).status).toBe(404);
    const open = await createContest(owner.client, shop.id, {
      kind: "draw",
      title: "Tirage du quartier",
      prizes: [{ lotId: lot.id }],
    });
    await schedule(owner.client, shop.id, open.id);
    const shopper = await signedIn(t);
    await grantPoints(t.deps, { shopId: shop.id, userId: shopper.user.id, points: 0 });
    const list = await json<{ contests: { id: string; isMyShop: boolean }[] }>(
      await shopper.client.request("/api/contests"),
    );
    expect(list.contests[0]).toMatchObject({ id: open.id, isMyShop: true });
    expect(list.contests.some((c) => c.id === draft.id)).toBe(false);

    expect(
      (await shopper.client.request("/api/contests/featured/cajvb", { method: "PUT", json: { contestId: open.id } }))
        .status,
    ).toBe(403);
    const admin = await signedIn(t, { role: "admin" });
    expect(
      (await admin.client.request("/api/contests/featured/cajvb", { method: "PUT", json: { contestId: open.id } }))
        .status,
    ).toBe(200);
    const featured = await json<{ pinned: { contest: { id: string } } | null }>(
      await t.request("/api/contests/featured/cajvb"),
    );
    expect(featured.pinned?.contest.id).toBe(open.id);
    expect(
      (await admin.client.request("/api/contests/featured/cajvb", { method: "PUT", json: { contestId: null } })).status,
    ).toBe(200);
    const none = await json<{ pinned: null; open: unknown[] }>(await t.request("/api/contests/featured/cajvb"));
    expect(none.pinned).toBeNull();
    expect(none.open.length).toBeGreaterThan(0);
    expect((await t.request("/api/contests/featured/inconnu")).status).toBe(400);
  });
});

describe("issue 22: one person, one entry; a complete règlement; the counter's lookups", () => {
  const post = (p: { client: Client }, id: string, action: "enter" | "spin", deviceId?: string) =>
    p.client.request(`/api/contests/${id}/${action}`, { json: deviceId ? { deviceId } : {} });
  const customer = async (shopId: string, over: Parameters<typeof player>[0] = {}) => {
    const p = await player(over);
    await recordVisit(t.deps, { shopId, userId: p.user.id, at: new Date() });
    return p;
  };

  it("issue 22 row 3: 4 accounts from one network or device count once in a draw; a non-customer cannot enter by default; the owner sees the groups before the draw; the draw sets them aside as the règlement says", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const lot = await createLot(owner.client, shop.id, { quantity: 20 });
    const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/contests`, {
      json: {
        kind: "draw",
        title: "Tirage du quartier",
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: new Date(Date.now() + 86_400_000).toISOString(),
        prizes: [{ lotId: lot.id, quantity: 10 }],
      },
    });
    const draw = (await json<{ contest: Owned & { eligibility: string } }>(res)).contest;
    expect(draw.eligibility).toBe("customers");
    await schedule(owner.client, shop.id, draw.id);

    // Customers only by default: an account without a visit is refused.
    const stranger = await player();
    const refused = await post(stranger, draw.id, "enter");
    expect(refused.status).toBe(403);
    expect((await json(refused)).message).toMatch(/réservé aux clients de la boutique/);

    // Four accounts from one network (203.0.113.x), two on one phone (one device id), one sharing a mobile number.
    const net = ownNetwork(10).replace(/\.\d+$/, "");
    const sameNetwork = [];
    for (const host of [10, 11, 12, 13]) sameNetwork.push(await customer(shop.id, { ip: `${net}.${host}` }));
    const alone = await customer(shop.id);
    const phoneA = await customer(shop.id);
    const phoneB = await customer(shop.id);
    for (const p of [phoneA, phoneB])
      await t.deps.db.update(profiles).set({ phone: "+33612345678" }).where(eq(profiles.id, p.user.id));
    const deviceA = await customer(shop.id);
    const deviceB = await customer(shop.id);
    for (const p of [...sameNetwork, alone, phoneA, phoneB]) expect((await post(p, draw.id, "enter")).status).toBe(201);
    for (const p of [deviceA, deviceB])
      expect((await post(p, draw.id, "enter", "phone-of-one-person")).status).toBe(201);

    const groups = await json<{
      entries: number;
      excludedEntries: number;
      groups: { reasons: string[]; accounts: { name: string; counted: boolean }[] }[];
    }>(await owner.client.request(`/api/backoffice/shops/${shop.id}/contests/${draw.id}/groups`));
    expect(groups.entries).toBe(9);
    expect(groups.excludedEntries).toBe(5);
    expect(groups.groups.map((g) => [g.reasons, g.accounts.map((a) => a.counted)])).toEqual([
      [["même réseau internet"], [true, false, false, false]],
      [["même numéro de mobile"], [true, false]],
      [["même appareil"], [true, false]],
    ]);
    // Staff and other shops do not see them.
    const staff = await player();
    await addStaff(t.deps, shop.id, staff.user.id);
    expect((await staff.client.request(`/api/backoffice/shops/${shop.id}/contests/${draw.id}/groups`)).status).toBe(
      403,
    );
    const other = await shopWithOwner(t);
    expect(
      (await other.owner.client.request(`/api/backoffice/shops/${other.shop.id}/contests/${draw.id}/groups`)).status,
    ).toBe(404);

    // The draw: 10 lots, 9 entries, but only 4 people: the first of each group, and the one alone.
    await closeNow(draw.id);
    const won = await drawContest({ db: t.deps.db, contestId: draw.id });
    expect(new Set(won!.map((w) => w.userId))).toEqual(
      new Set([sameNetwork[0]!.user.id, alone.user.id, phoneA.user.id, deviceA.user.id]),
    );
    const published = await json<{ entrants: unknown[] }>(await t.request(`/api/contests/${draw.id}/draw`));
    expect(published.entrants).toHaveLength(4);
    // Stored: the network prefix, never the address.
    const stored = await t.deps.db.execute<{ network: string | null }>(
      sql`select distinct network from contest_entries where contest_id = ${draw.id} and user_id = ${sameNetwork[1]!.user.id}`,
    );
    expect(stored.rows).toEqual([{ network: `${net}.0/24` }]);
    // The règlement states the rule the draw applied.
    const rules = await json<{ document: { sections: { id: string; paragraphs: string[] }[] } }>(
      await t.request(`/api/contests/${draw.id}/rules`),
    );
    const participants = rules.document.sections.find((x) => x.id === "participants")!.paragraphs.join(" ");
    expect(participants).toContain("seules comptent les participations du compte qui s'est inscrit le premier");
    expect(participants).toContain("au moins un passage enregistré en boutique");
  });

  it("issue 22 row 3: the wheel gives one spin, so at most one lot, per person and period — 4 accounts on one network at once, or one device, or one mobile number", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const lot = await createLot(owner.client, shop.id, { quantity: 50 });
    const wheel = await createContest(owner.client, shop.id, {
      kind: "wheel",
      eligibility: "customers",
      spinPeriod: "day",
      prizes: [{ lotId: lot.id, oddsBp: 10_000 }],
    });
    await schedule(owner.client, shop.id, wheel.id);
    const net = ownNetwork().replace(/\.\d+$/, "");
    const four = await Promise.all([21, 22, 23, 24].map((h) => customer(shop.id, { ip: `${net}.${h}` })));
    const answers = await Promise.all(four.map((p) => post(p, wheel.id, "spin")));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    const refusedText = await json(answers.find((a) => a.status === 409)!);
    expect(refusedText.message).toBe(
      "Un autre compte a déjà joué aujourd'hui depuis cet appareil, ce réseau internet ou ce numéro de mobile : une seule participation par personne.",
    );
    // One device id on two networks, then one mobile number on two networks.
    const [d1, d2, m1, m2] = await Promise.all([1, 2, 3, 4].map(() => customer(shop.id)));
    expect((await post(d1!, wheel.id, "spin", "device-of-one-person")).status).toBe(201);
    expect((await post(d2!, wheel.id, "spin", "device-of-one-person")).status).toBe(409);
    for (const p of [m1!, m2!])
      await t.deps.db.update(profiles).set({ phone: "+33698765432" }).where(eq(profiles.id, p.user.id));
    expect((await post(m1!, wheel.id, "spin")).status).toBe(201);
    expect((await post(m2!, wheel.id, "spin")).status).toBe(409);
    // Three people, three lots: not seven.
    const rows = await t.deps.db.select().from(contestWinnings).where(eq(contestWinnings.contestId, wheel.id));
    expect(rows).toHaveLength(3);
    // Someone else on their own network still plays.
    expect((await post(await customer(shop.id), wheel.id, "spin")).status).toBe(201);
  });

  it("issue 22 row 3: an entry's device id and network are erased once the claims deadline (60 days after the end) has passed", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const lot = await createLot(owner.client, shop.id);
    const ids: string[] = [];
    for (const title of ["Ancien jeu", "Jeu récent"]) {
      const c = await createContest(owner.client, shop.id, { kind: "draw", title, prizes: [{ lotId: lot.id }] });
      await schedule(owner.client, shop.id, c.id);
      expect((await post(await player(), c.id, "enter", "device-kept-for-a-while")).status).toBe(201);
      ids.push(c.id);
    }
    const day = 86_400_000;
    await t.deps.db
      .update(contests)
      .set({ startsAt: new Date(Date.now() - 90 * day), endsAt: new Date(Date.now() - 61 * day) })
      .where(eq(contests.id, ids[0]!));
    expect(await forgetEntrySignals(t.deps.db)).toBeGreaterThanOrEqual(1);
    const rows = await t.deps.db.execute<{ contest_id: string; device_id: string | null; network: string | null }>(
      sql`select contest_id, device_id, network from contest_entries where contest_id in (${ids[0]!}, ${ids[1]!})`,
    );
    const old = rows.rows.find((r) => r.contest_id === ids[0])!;
    const recent = rows.rows.find((r) => r.contest_id === ids[1])!;
    expect([old.device_id, old.network]).toEqual([null, null]);
    expect(recent.device_id).toBe("device-kept-for-a-while");
    expect(recent.network).toMatch(/\.0\/24$/);
  });

  it("issue 22 row 7: a contest cannot be restricted to a points level any more; the règlement has a claims and disputes article", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const lot = await createLot(owner.client, shop.id);
    const base = {
      kind: "draw",
      title: "Tirage des fidèles",
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: new Date(Date.now() + 86_400_000).toISOString(),
      prizes: [{ lotId: lot.id }],
    };
    const vip = await owner.client.request(`/api/backoffice/shops/${shop.id}/contests`, {
      json: { ...base, eligibility: "vip" },
    });
    expect(vip.status).toBe(400);
    const tier = await owner.client.request(`/api/backoffice/shops/${shop.id}/contests`, {
      json: { ...base, eligibility: "customers", vipTierId: "8d1c5a0e-6f0b-4a43-9d64-7a4a8f7e2b11" },
    });
    expect(tier.status).toBe(400);
    expect((await json(tier)).message).toMatch(/gratuit/);
    const columns = await t.deps.db.execute<{ column_name: string }>(
      sql`select column_name from information_schema.columns where table_name = 'contests' and column_name ~ 'vip|tier'`,
    );
    expect(columns.rows).toEqual([]);

    const created = await createContest(owner.client, shop.id, { ...base, eligibility: "customers" });
    await schedule(owner.client, shop.id, created.id);
    const rules = await json<{ document: { sections: { id: string; heading: string; paragraphs: string[] }[] } }>(
      await t.request(`/api/contests/${created.id}/rules`),
    );
    const claims = rules.document.sections.at(-1)!;
    expect(claims.id).toBe("claims");
    expect(claims.heading).toBe("Article 12 — Réclamations et litiges");
    const text = claims.paragraphs.join(" ");
    for (const words of [
      "au plus tard le",
      "solution amiable",
      "médiateur de la consommation",
      "tribunaux français compétents",
    ])
      expect(text).toContain(words);
    const all = rules.document.sections.flatMap((x) => x.paragraphs).join(" ");
    expect(all).toContain("aucun point de fidélité ne sont demandés");
    expect(all).not.toMatch(/VIP/);
  });

  it("issue 22 row 9: won-lot lookups are throttled per staff account (20 misses in 10 minutes), a hit is refunded, and only the first name shows until the lot is handed over", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const lot = await createLot(owner.client, shop.id, { quantity: 5, name: "Éclair" });
    const wheel = await createContest(owner.client, shop.id, {
      kind: "wheel",
      spinPeriod: "contest",
      prizes: [{ lotId: lot.id, oddsBp: 10_000 }],
    });
    await schedule(owner.client, shop.id, wheel.id);
    const winner = await player({ firstName: "Inès", lastName: "Durand-Secret" });
    const spin = await json<{ winning: { id: string; code: string } }>(await post(winner, wheel.id, "spin"));
    const staff = await player();
    await addStaff(t.deps, shop.id, staff.user.id);
    const lookup = (who: { client: Client }, code: string) =>
      who.client.request(`/api/backoffice/shops/${shop.id}/contest-winnings/lookup?code=${code}`);
    const free = async () => {
      // A code of the right shape that no lot has (not the winner's).
      for (;;) {
        const code = Array.from(
          { length: 6 },
          () => "ABCDEFGHJKMNPQRSTUVWXYZ23456789"[Math.floor(Math.random() * 31)],
        ).join("");
        if (code !== spin.winning.code) return code;
      }
    };

    for (let i = 0; i < 19; i++) expect((await lookup(staff, await free())).status).toBe(404);
    // Hits do not count: five in a row, then the 20th miss is still allowed.
    for (let i = 0; i < 5; i++) {
      const hit = await lookup(staff, spin.winning.code);
      expect(hit.status).toBe(200);
      const body = await json<{ winning: { winnerName: string; winnerEmail: string | null; status: string } }>(hit);
      expect(body.winning).toMatchObject({ winnerName: "Inès", winnerEmail: null, status: "to_hand_over" });
      expect(JSON.stringify(body)).not.toContain("Durand-Secret");
      expect(JSON.stringify(body)).not.toContain(winner.user.email);
    }
    expect((await lookup(staff, await free())).status).toBe(404);
    const limited = await lookup(staff, await free());
    expect(limited.status).toBe(429);
    expect((await json(limited)).message).toMatch(/^Trop de tentatives\. Réessayez dans/);
    expect((await lookup(staff, spin.winning.code)).status).toBe(429);

    // Another staff member has their own allowance; once handed over, the full record shows.
    const colleague = await player();
    await addStaff(t.deps, shop.id, colleague.user.id);
    const handed = await json<{ winning: { winnerName: string; winnerEmail: string | null } }>(
      await colleague.client.request(`/api/backoffice/shops/${shop.id}/contest-winnings/${spin.winning.id}/hand-over`, {
        method: "POST",
      }),
    );
    expect(handed.winning).toMatchObject({ winnerName: "Inès Durand-Secret", winnerEmail: winner.user.email });
    const after = await json<{ winning: { winnerName: string } }>(await lookup(colleague, spin.winning.code));
    expect(after.winning.winnerName).toBe("Inès Durand-Secret");
  });
});

describe("two server processes on one PostgreSQL", () => {
  it.skipIf(!inject("testDatabaseUrl"))(
    "both run the draw at the closing time: it happens exactly once (skipped without TEST_DATABASE_URL)",
    async () => {
      const { draw } = await (async () => {
        const { shop, owner } = await shopWithOwner(t);
        const lot = await createLot(owner.client, shop.id, { quantity: 3 });
        const contest = await createContest(owner.client, shop.id, {
          kind: "draw",
          prizes: [{ lotId: lot.id, quantity: 2 }],
        });
        await schedule(owner.client, shop.id, contest.id);
        for (const p of await Promise.all(Array.from({ length: 6 }, () => player()))) {
          expect((await p.client.request(`/api/contests/${contest.id}/enter`, { json: {} })).status).toBe(201);
        }
        return { draw: contest };
      })();
      await closeNow(draw.id);
      const env = {
        DATABASE_URL: inject("testDatabaseUrl"),
        APP_URL: "http://fidele.test",
        SECRET: randomBytes(32).toString("hex"),
        DATA_DIR: await mkdtemp(path.join(tmpdir(), "fidele-two-")),
        SEED_DEMO: "0",
      };
      const servers: ServerProcess[] = [await spawnServer(env), await spawnServer(env)];
      try {
        await Promise.all(servers.map((s) => waitHealthy(s)));
        // Each process runs its contests pass at start (then every 30 s): both race for the same due draw.
        await eventually(
          async () =>
            (await t.deps.db.select({ status: contests.status }).from(contests).where(eq(contests.id, draw.id)))[0]
              ?.status,
        ).toBe("drawn");
        await sleep(1500);
        const rows = await t.deps.db.select().from(contestWinnings).where(eq(contestWinnings.contestId, draw.id));
        expect(rows).toHaveLength(2);
        const published = await json<{
          seed: string;
          commitment: string;
          entrantsHash: string;
          entrants: { ticketId: string; participantId: string }[];
        }>(await t.request(`/api/contests/${draw.id}/draw`));
        const { sequence, seedMatches, listMatches } = await verifyDraw({
          ...published,
          listHash: published.entrantsHash,
          tickets: published.entrants,
          count: 2,
        });
        expect(seedMatches && listMatches).toBe(true);
        expect(sequence.map((x) => x.ticketId)).toEqual(
          [...rows].sort((a, b) => a.drawRank! - b.drawRank!).map((r) => r.entryId),
        );
      } finally {
        await Promise.all(servers.map((s) => s.stop()));
      }
    },
  );
});
