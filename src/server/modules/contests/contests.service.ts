import { and, asc, desc, eq, inArray, isNull, max, sql } from "drizzle-orm";
import { CONTEST_PHASE_LABELS_FR, contestPhase } from "../../../domain/contests/contests.ts";
import { newSeed, seedCommitment } from "../../../domain/contests/draw.ts";
import { buildRules, type RulesDocument } from "../../../domain/contests/rules-text.ts";
import {
  changedLockedFields,
  extendedEnd,
  lockedFieldsMessage,
  OPEN_CONTEST_LOCK_REASON_FR,
} from "../../../domain/contests/open-edit.ts";
import type { ContestValues } from "../../../domain/contests/schemas.ts";
import { losingOddsBp } from "../../../domain/contests/wheel.ts";
import { AppError } from "../../../domain/errors.ts";
import { formatEuros } from "../../../domain/format.ts";
import type { Db } from "../../db/client.ts";
import { contestPrizes, contestRules, contests, prizeLots, shops } from "../../db/schema/index.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { contestNotFound, type Tx } from "./shared.ts";

/* The owner's contests (/admin/jeux-concours) --------------------------------------------------------------- */

export const contestPageUrl = (appUrl: string, id: string) => `${appUrl}/jeu-concours?concours=${id}`;
const rulesPageUrl = (appUrl: string, id: string) => `${appUrl}/jeu-concours?reglement=${id}`;

export async function prizesOf(db: Tx, contestIds: string[]) {
  if (contestIds.length === 0) return [];
  return db
    .select({
      id: contestPrizes.id,
      contestId: contestPrizes.contestId,
      lotId: contestPrizes.lotId,
      position: contestPrizes.position,
      quantity: contestPrizes.quantity,
      oddsBp: contestPrizes.oddsBp,
      name: prizeLots.name,
      description: prizeLots.description,
      valueCents: prizeLots.valueCents,
      remaining: prizeLots.remaining,
      handover: prizeLots.handover,
      points: prizeLots.points,
      claimDays: prizeLots.claimDays,
    })
    .from(contestPrizes)
    .innerJoin(prizeLots, eq(prizeLots.id, contestPrizes.lotId))
    .where(inArray(contestPrizes.contestId, contestIds))
    .orderBy(asc(contestPrizes.position));
}
type PrizeRow = Awaited<ReturnType<typeof prizesOf>>[number];

export function prizeDto(p: PrizeRow) {
  return {
    id: p.id,
    lotId: p.lotId,
    name: p.name,
    description: p.description,
    quantity: p.quantity,
    oddsBp: p.oddsBp,
    valueCents: p.valueCents,
    valueLabel: formatEuros(p.valueCents / 100),
    remaining: p.remaining,
    handover: p.handover,
  };
}

/** What every view of a contest opens with: what it is and where it stands at `now`. */
export function contestHeadDto(c: typeof contests.$inferSelect, now: Date) {
  const phase = contestPhase(c, now);
  return {
    id: c.id,
    kind: c.kind,
    title: c.title,
    description: c.description,
    phase,
    phaseLabel: CONTEST_PHASE_LABELS_FR[phase],
    startsAt: c.startsAt.toISOString(),
    endsAt: c.endsAt.toISOString(),
  };
}

function ownerContestDto(c: typeof contests.$inferSelect, prizes: PrizeRow[], now: Date) {
  return {
    ...contestHeadDto(c, now),
    eligibility: c.eligibility,
    entriesPerPerson: c.entriesPerPerson,
    spinPeriod: c.spinPeriod,
    seedCommitment: c.seedCommitment,
    drawnAt: c.drawnAt?.toISOString() ?? null,
    prizes: prizes.filter((p) => p.contestId === c.id).map(prizeDto),
    losingOddsBp: c.kind === "wheel" ? losingOddsBp(prizes.filter((p) => p.contestId === c.id)) : null,
  };
}

export async function listOwnerContests(db: Db, access: ShopAccess, now = new Date()) {
  const rows = await db
    .select()
    .from(contests)
    .where(eq(contests.shopId, shopScope(access)))
    .orderBy(desc(contests.createdAt));
  const prizes = await prizesOf(
    db,
    rows.map((r) => r.id),
  );
  return { contests: rows.map((r) => ownerContestDto(r, prizes, now)) };
}

async function ownedContest(db: Tx, access: ShopAccess, id: string, lock = false) {
  const query = db
    .select()
    .from(contests)
    .where(and(eq(contests.id, id), eq(contests.shopId, shopScope(access))));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw contestNotFound();
  return row;
}

/** Every lot named must be one of this shop's, not archived. */
async function checkLots(db: Tx, shopId: string, values: ContestValues) {
  const ids = values.prizes.map((p) => p.lotId);
  const found = await db
    .select({ id: prizeLots.id })
    .from(prizeLots)
    .where(and(inArray(prizeLots.id, ids), eq(prizeLots.shopId, shopId), isNull(prizeLots.archivedAt)));
  if (found.length !== new Set(ids).size)
    throw new AppError("VALIDATION", {
      userMessage: "Un des lots choisis est introuvable.",
      fields: { prizes: "Lot introuvable." },
    });
}

async function writePrizes(tx: Tx, contestId: string, values: ContestValues) {
  await tx.delete(contestPrizes).where(eq(contestPrizes.contestId, contestId));
  await tx.insert(contestPrizes).values(
    values.prizes.map((p, position) => ({
      contestId,
      lotId: p.lotId,
      position,
      quantity: values.kind === "draw" ? p.quantity : 1,
      oddsBp: values.kind === "wheel" ? p.oddsBp : 0,
    })),
  );
}

const contestColumns = (v: ContestValues) => ({
  kind: v.kind,
  title: v.title,
  description: v.description,
  startsAt: v.startsAt,
  endsAt: v.endsAt,
  eligibility: v.eligibility,
  entriesPerPerson: v.kind === "draw" ? v.entriesPerPerson : 1,
  spinPeriod: v.spinPeriod,
});

export async function createContest(db: Db, access: ShopAccess, values: ContestValues) {
  await checkLots(db, access.shopId, values);
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contests)
      .values({ shopId: access.shopId, ...contestColumns(values) })
      .returning({ id: contests.id });
    await writePrizes(tx, row!.id, values);
    return row!.id;
  });
  return getOwnerContest(db, access, id);
}

export async function getOwnerContest(db: Db, access: ShopAccess, id: string, now = new Date()) {
  const row = await ownedContest(db, access, id);
  return ownerContestDto(row, await prizesOf(db, [id]), now);
}

/** Draw prizes hold their lots from scheduling on (the stock can never promise what it does not have). */
async function reserveStock(tx: Tx, contestId: string, sign: 1 | -1) {
  const prizes = await prizesOf(tx, [contestId]);
  for (const p of prizes) {
    const [ok] = await tx
      .update(prizeLots)
      .set({ remaining: sql`${prizeLots.remaining} - ${sign * p.quantity}` })
      .where(and(eq(prizeLots.id, p.lotId), sign === 1 ? sql`${prizeLots.remaining} >= ${p.quantity}` : undefined))
      .returning({ id: prizeLots.id });
    if (!ok)
      throw new AppError("CONFLICT", {
        userMessage: `Stock insuffisant pour « ${p.name} » : il en reste ${p.remaining}, le jeu en promet ${p.quantity}.`,
      });
  }
}

/**
 * Edits. A draft or a contest not open yet is replaced (its règlement v1 rewritten). Once open, only the title, the
 * description and a later end may change: a different value in a locked field is refused with its name (the form
 * sends every field, so the same value passes; src/domain/contests/open-edit.ts), and the règlement gets a new dated
 * version only when its text changes.
 */
export async function updateContest(
  db: Db,
  access: ShopAccess,
  id: string,
  values: ContestValues,
  appUrl: string,
  now = new Date(),
) {
  await db.transaction(async (tx) => {
    const current = await ownedContest(tx, access, id, true);
    const phase = contestPhase(current, now);
    if (phase === "draft" || phase === "scheduled") {
      if (values.kind !== current.kind)
        throw new AppError("CONFLICT", { userMessage: "Le type de jeu ne peut pas changer." });
      await checkLots(tx, access.shopId, values);
      if (phase === "scheduled" && current.kind === "draw") await reserveStock(tx, id, -1);
      await tx
        .update(contests)
        .set({ ...contestColumns(values), updatedAt: now })
        .where(eq(contests.id, id));
      await writePrizes(tx, id, values);
      if (phase === "scheduled") {
        if (current.kind === "draw") await reserveStock(tx, id, 1);
        await publishRules(tx, id, appUrl, { replaceVersion: 1 });
      }
      return;
    }
    if (phase === "open") {
      const locked = changedLockedFields({ ...current, prizes: await prizesOf(tx, [id]) }, values);
      if (locked.length > 0)
        throw new AppError("CONFLICT", {
          userMessage: lockedFieldsMessage(locked, current.kind),
          fields: Object.fromEntries(locked.map((f) => [f, OPEN_CONTEST_LOCK_REASON_FR])),
        });
      const endsAt = extendedEnd(current.endsAt, values.endsAt);
      if (!endsAt)
        throw new AppError("CONFLICT", {
          userMessage: "Un jeu en cours peut être prolongé, pas raccourci.",
          fields: { endsAt: "Choisissez une fin plus tardive." },
        });
      // Before and after this edit, not against the last version: what else moved since (a wheel's stock, the
      // shop's legal details) is not this edit, and a description is not in the règlement.
      const before = await buildContestRules(tx, id, appUrl);
      await tx
        .update(contests)
        .set({ title: values.title, description: values.description, endsAt, updatedAt: now })
        .where(eq(contests.id, id));
      const after = await buildContestRules(tx, id, appUrl);
      if (JSON.stringify(after) !== JSON.stringify(before)) await publishRules(tx, id, appUrl, { document: after });
      return;
    }
    throw new AppError("CONFLICT", { userMessage: "Ce jeu est terminé : il ne peut plus être modifié." });
  });
  return getOwnerContest(db, access, id, now);
}

export async function deleteContest(db: Db, access: ShopAccess, id: string) {
  const [row] = await db
    .delete(contests)
    .where(and(eq(contests.id, id), eq(contests.shopId, shopScope(access)), eq(contests.status, "draft")))
    .returning({ id: contests.id });
  if (!row) {
    await ownedContest(db, access, id);
    throw new AppError("CONFLICT", { userMessage: "Seul un brouillon peut être supprimé." });
  }
  return { ok: true };
}

/**
 * Draft → scheduled: the seed is drawn and its SHA-256 commitment published, draw prizes take their lots from
 * stock, and the règlement is published at its stable address.
 */
export async function scheduleContest(db: Db, access: ShopAccess, id: string, appUrl: string, now = new Date()) {
  await db.transaction(async (tx) => {
    const current = await ownedContest(tx, access, id, true);
    if (current.status !== "draft") throw new AppError("CONFLICT", { userMessage: "Ce jeu est déjà programmé." });
    if (current.endsAt <= now)
      throw new AppError("CONFLICT", { userMessage: "La date de fin est déjà passée : modifiez-la d'abord." });
    const seed = current.kind === "draw" ? newSeed() : null;
    await tx
      .update(contests)
      .set({
        status: "scheduled",
        seed,
        seedCommitment: seed ? await seedCommitment(seed) : null,
        scheduledAt: now,
        updatedAt: now,
      })
      .where(eq(contests.id, id));
    if (current.kind === "draw") await reserveStock(tx, id, 1);
    await publishRules(tx, id, appUrl, {});
  });
  return getOwnerContest(db, access, id, now);
}

/* The règlement ---------------------------------------------------------------------------------------------- */

async function buildContestRules(tx: Tx, id: string, appUrl: string): Promise<RulesDocument> {
  const [row] = await tx
    .select({ contest: contests, shop: shops })
    .from(contests)
    .innerJoin(shops, eq(shops.id, contests.shopId))
    .where(eq(contests.id, id));
  if (!row) throw contestNotFound();
  const { contest: c, shop } = row;
  const prizes = await prizesOf(tx, [id]);
  const legal = shop.legal;
  return buildRules({
    organiser: {
      shopName: shop.name,
      legalName: legal?.legalName ?? null,
      legalForm: legal?.legalForm ?? null,
      shareCapital: legal?.shareCapital ?? null,
      rcs: legal?.rcs ?? null,
      siret: shop.siret,
      legalAddress: legal?.legalAddress ?? null,
      address: shop.address,
      postalCode: shop.postalCode,
      city: shop.city,
      director: legal?.director ?? null,
      contactEmail: legal?.contactEmail ?? null,
    },
    contest: {
      title: c.title,
      kind: c.kind,
      startsAt: c.startsAt,
      endsAt: c.endsAt,
      timeZone: shop.timezone,
      eligibility: c.eligibility,
      entriesPerPerson: c.entriesPerPerson,
      spinPeriod: c.spinPeriod,
      seedCommitment: c.seedCommitment,
    },
    prizes: prizes.map((p) => ({
      name: p.name,
      description: p.description,
      quantity: c.kind === "draw" ? p.quantity : p.remaining,
      valueCents: p.valueCents,
      handover: p.handover,
      points: p.points,
      claimDays: p.claimDays,
      oddsBp: p.oddsBp,
    })),
    rulesUrl: rulesPageUrl(appUrl, id),
    contestUrl: contestPageUrl(appUrl, id),
  });
}

async function publishRules(
  tx: Tx,
  id: string,
  appUrl: string,
  options: { replaceVersion?: number; document?: RulesDocument },
) {
  const document = options.document ?? (await buildContestRules(tx, id, appUrl));
  if (options.replaceVersion) {
    await tx
      .insert(contestRules)
      .values({ contestId: id, version: options.replaceVersion, document })
      .onConflictDoUpdate({
        target: [contestRules.contestId, contestRules.version],
        set: { document, publishedAt: new Date() },
      });
    return;
  }
  const [last] = await tx
    .select({ v: max(contestRules.version) })
    .from(contestRules)
    .where(eq(contestRules.contestId, id));
  await tx.insert(contestRules).values({ contestId: id, version: (last?.v ?? 0) + 1, document });
}

/** The published règlement (latest, or a given version) and the list of versions; a draft has none (404). */
export async function getPublishedRules(db: Db, id: string, version?: number) {
  const versions = await db
    .select({ version: contestRules.version, publishedAt: contestRules.publishedAt, document: contestRules.document })
    .from(contestRules)
    .innerJoin(contests, eq(contests.id, contestRules.contestId))
    .where(and(eq(contestRules.contestId, id), sql`${contests.status} <> 'draft'`))
    .orderBy(asc(contestRules.version));
  const chosen = version ? versions.find((v) => v.version === version) : versions.at(-1);
  if (!chosen) throw new AppError("NOT_FOUND", { userMessage: "Règlement introuvable." });
  return {
    version: chosen.version,
    publishedAt: chosen.publishedAt.toISOString(),
    document: chosen.document,
    versions: versions.map((v) => ({ version: v.version, publishedAt: v.publishedAt.toISOString() })),
  };
}
