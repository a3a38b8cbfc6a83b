import { and, desc, eq, ilike, isNull, or, type SQL, sql } from "drizzle-orm";
import {
  HANDOVER_LABELS_FR,
  parseClaimCode,
  WINNING_STATUS_LABELS_FR,
  type WinningStatus,
} from "../../../domain/contests/contests.ts";
import { AppError } from "../../../domain/errors.ts";
import { formatEuros } from "../../../domain/format.ts";
import { csvDateTime, toCsv } from "../../../domain/loyalty/csv.ts";
import type { Db } from "../../db/client.ts";
import { contests, contestWinnings, prizeLots, profiles, shops, user } from "../../db/schema/index.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { lotNotFound, winningStateColumns, winningStateDto } from "./shared.ts";

/* The shop's stock of prizes (/admin/gestion-des-lots) ------------------------------------------------------- */

type LotValues = {
  name: string;
  description: string | null;
  photo: string | null;
  valueCents: number;
  quantity: number;
  handover: "counter" | "points" | "voucher";
  points: number | null;
  claimDays: number;
};

function lotDto(l: typeof prizeLots.$inferSelect) {
  return {
    id: l.id,
    name: l.name,
    description: l.description,
    photo: l.photo,
    valueCents: l.valueCents,
    valueLabel: formatEuros(l.valueCents / 100),
    quantity: l.quantity,
    remaining: l.remaining,
    handover: l.handover,
    handoverLabel: HANDOVER_LABELS_FR[l.handover],
    points: l.points,
    claimDays: l.claimDays,
  };
}

export async function listLots(db: Db, access: ShopAccess) {
  const rows = await db
    .select()
    .from(prizeLots)
    .where(and(eq(prizeLots.shopId, shopScope(access)), isNull(prizeLots.archivedAt)))
    .orderBy(desc(prizeLots.createdAt));
  return { lots: rows.map(lotDto) };
}

export async function createLot(db: Db, access: ShopAccess, input: LotValues) {
  const [row] = await db
    .insert(prizeLots)
    .values({
      shopId: access.shopId,
      name: input.name,
      description: input.description,
      photo: input.photo,
      valueCents: input.valueCents,
      quantity: input.quantity,
      remaining: input.quantity,
      handover: input.handover,
      points: input.handover === "points" ? input.points : null,
      claimDays: input.claimDays,
    })
    .returning();
  return lotDto(row!);
}

/** Changing the quantity moves what is left by the same amount; it cannot take back lots already won or reserved. */
export async function updateLot(db: Db, access: ShopAccess, lotId: string, input: LotValues) {
  const [row] = await db
    .update(prizeLots)
    .set({
      name: input.name,
      description: input.description,
      photo: input.photo,
      valueCents: input.valueCents,
      handover: input.handover,
      points: input.handover === "points" ? input.points : null,
      claimDays: input.claimDays,
      quantity: input.quantity,
      remaining: sql`${prizeLots.remaining} + (${input.quantity}::int - ${prizeLots.quantity})`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(prizeLots.id, lotId),
        eq(prizeLots.shopId, shopScope(access)),
        isNull(prizeLots.archivedAt),
        sql`${prizeLots.remaining} + (${input.quantity}::int - ${prizeLots.quantity}) >= 0`,
      ),
    )
    .returning();
  if (row) return lotDto(row);
  const [exists] = await db
    .select({ quantity: prizeLots.quantity, remaining: prizeLots.remaining })
    .from(prizeLots)
    .where(and(eq(prizeLots.id, lotId), eq(prizeLots.shopId, shopScope(access)), isNull(prizeLots.archivedAt)));
  if (!exists) throw lotNotFound();
  throw new AppError("CONFLICT", {
    userMessage: `La quantité ne peut pas descendre sous ${exists.quantity - exists.remaining} : ces lots sont déjà gagnés ou réservés par un jeu.`,
  });
}

export async function archiveLot(db: Db, access: ShopAccess, lotId: string) {
  const [row] = await db
    .update(prizeLots)
    .set({ archivedAt: new Date() })
    .where(and(eq(prizeLots.id, lotId), eq(prizeLots.shopId, shopScope(access)), isNull(prizeLots.archivedAt)))
    .returning({ id: prizeLots.id });
  if (!row) throw lotNotFound();
  return { ok: true };
}

/* Lots won (/admin/gestion-des-lots-2), and the hand-over at the counter ------------------------------------- */

const winningColumns = {
  ...winningStateColumns,
  drawRank: contestWinnings.drawRank,
  note: contestWinnings.note,
  lotName: prizeLots.name,
  lotHandover: prizeLots.handover,
  lotValueCents: prizeLots.valueCents,
  contestTitle: contests.title,
  contestKind: contests.kind,
  firstName: profiles.firstName,
  lastName: profiles.lastName,
  email: user.email,
  handedOverByName: sql<string | null>`(select u.name from "user" u where u.id = ${contestWinnings.handedOverBy})`,
  timezone: shops.timezone,
};

const winningsQuery = (db: Db) =>
  db
    .select(winningColumns)
    .from(contestWinnings)
    .innerJoin(prizeLots, eq(prizeLots.id, contestWinnings.lotId))
    .innerJoin(contests, eq(contests.id, contestWinnings.contestId))
    .innerJoin(shops, eq(shops.id, contestWinnings.shopId))
    .leftJoin(profiles, eq(profiles.id, contestWinnings.userId))
    .leftJoin(user, eq(user.id, contestWinnings.userId));
type WinningRow = Awaited<ReturnType<typeof winningsQuery>>[number];

const winnerName = (r: WinningRow) => [r.firstName, r.lastName].filter(Boolean).join(" ").trim() || "Client";

/**
 * At the counter, a lot not handed over yet shows its winner's first name only (issue 22 row 9): enough to greet
 * the person holding the code, too little to learn who won from a guessed code. Once handed over, the record is
 * the shop's, like the list the owner sees.
 */
function counterDto(r: WinningRow) {
  const dto = winningDto(r);
  if (r.status === "handed_over") return dto;
  return { ...dto, winnerName: r.firstName?.trim() || "Client", winnerEmail: null };
}

function winningDto(r: WinningRow) {
  return {
    ...winningStateDto(r),
    handedOverByName: r.handedOverByName,
    drawRank: r.drawRank,
    note: r.note,
    lotName: r.lotName,
    handover: r.lotHandover,
    valueLabel: formatEuros(r.lotValueCents / 100),
    contestTitle: r.contestTitle,
    winnerName: winnerName(r),
    winnerEmail: r.email as string | null,
  };
}

type WinningsQuery = { q?: string; status?: WinningStatus | "all" };

function winningsWhere(access: ShopAccess, query: WinningsQuery): SQL | undefined {
  const q = query.q?.trim();
  const like = q ? `%${q.replace(/[%_\\]/g, (c) => `\\${c}`)}%` : null;
  return and(
    eq(contestWinnings.shopId, shopScope(access)),
    query.status && query.status !== "all" ? eq(contestWinnings.status, query.status) : undefined,
    like
      ? or(
          ilike(contestWinnings.code, like),
          ilike(prizeLots.name, like),
          ilike(contests.title, like),
          ilike(profiles.firstName, like),
          ilike(profiles.lastName, like),
          ilike(user.email, like),
        )
      : undefined,
  );
}

export async function listWinnings(db: Db, access: ShopAccess, query: WinningsQuery) {
  const rows = await winningsQuery(db)
    .where(winningsWhere(access, query))
    .orderBy(desc(contestWinnings.createdAt))
    .limit(500);
  return { winnings: rows.map(winningDto) };
}

export async function winningsCsv(db: Db, access: ShopAccess, query: WinningsQuery) {
  const rows = await winningsQuery(db)
    .where(winningsWhere(access, query))
    .orderBy(desc(contestWinnings.createdAt))
    .limit(10_000);
  return toCsv(
    [
      "Code",
      "Statut",
      "Lot",
      "Valeur",
      "Jeu",
      "Gagnant",
      "E-mail",
      "Gagné le",
      "À retirer avant",
      "Remis le",
      "Remis par",
      "Rang du tirage",
    ],
    rows.map((r) => [
      r.code,
      WINNING_STATUS_LABELS_FR[r.status],
      r.lotName,
      r.lotValueCents / 100,
      r.contestTitle,
      winnerName(r),
      r.email,
      csvDateTime(r.createdAt, r.timezone),
      csvDateTime(r.claimBy, r.timezone),
      csvDateTime(r.handedOverAt, r.timezone),
      r.handedOverByName,
      r.drawRank === null ? null : r.drawRank + 1,
    ]),
  );
}

const badCode = () =>
  new AppError("VALIDATION", {
    userMessage: "Ce code n'a pas le bon format : 6 lettres et chiffres.",
    fields: { code: "Code invalide." },
  });

/** A lot's code typed or scanned at the counter; a code of another shop is "not found". */
export async function lookupWinning(db: Db, access: ShopAccess, rawCode: string) {
  const code = parseClaimCode(rawCode);
  if (!code) throw badCode();
  const [row] = await winningsQuery(db)
    .where(and(eq(contestWinnings.code, code), eq(contestWinnings.shopId, shopScope(access))))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Aucun lot gagné avec ce code dans votre boutique." });
  return counterDto(row);
}

/** Staff hand a lot over: once, before its claim deadline, the staff member recorded. */
export async function handOverWinning(db: Db, access: ShopAccess, id: string, now = new Date()) {
  const [done] = await db
    .update(contestWinnings)
    .set({ status: "handed_over", handedOverAt: now, handedOverBy: access.userId })
    .where(
      and(
        eq(contestWinnings.id, id),
        eq(contestWinnings.shopId, shopScope(access)),
        eq(contestWinnings.status, "to_hand_over"),
        sql`${contestWinnings.claimBy} > ${now}`,
      ),
    )
    .returning({ id: contestWinnings.id });
  const [row] = await winningsQuery(db)
    .where(and(eq(contestWinnings.id, id), eq(contestWinnings.shopId, shopScope(access))))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Lot introuvable." });
  if (!done) {
    throw new AppError("CONFLICT", {
      userMessage:
        row.status === "handed_over"
          ? "Ce lot a déjà été remis."
          : row.status === "to_hand_over"
            ? "Trop tard : le délai pour retirer ce lot est passé."
            : `Ce lot ne peut plus être remis : ${WINNING_STATUS_LABELS_FR[row.status].toLowerCase()}.`,
    });
  }
  return counterDto(row);
}
