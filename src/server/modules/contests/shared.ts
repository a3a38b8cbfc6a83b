import { sql } from "drizzle-orm";
import {
  CLAIM_CODE_ALPHABET,
  WINNING_STATUS_LABELS_FR,
  type WinningStatus,
} from "../../../domain/contests/contests.ts";
import { sha256Hex } from "../../../domain/contests/draw.ts";
import { secureRandomBelow } from "../../../domain/contests/wheel.ts";
import { AppError } from "../../../domain/errors.ts";
import type { Db } from "../../db/client.ts";
import { contestWinnings, ledgerEntries } from "../../db/schema/index.ts";
import { cards } from "../../db/schema/cards.ts";

/** A transaction or the database: every contest write takes one of them. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

export const contestNotFound = () => new AppError("NOT_FOUND", { userMessage: "Jeu concours introuvable." });
export const lotNotFound = () => new AppError("NOT_FOUND", { userMessage: "Lot introuvable." });

/** The columns winningStateDto reads. */
export const winningStateColumns = {
  id: contestWinnings.id,
  code: contestWinnings.code,
  status: contestWinnings.status,
  claimBy: contestWinnings.claimBy,
  createdAt: contestWinnings.createdAt,
  handedOverAt: contestWinnings.handedOverAt,
};

/** A winning's code and where it stands: what the shop's list and the winner's page both show of it. */
export function winningStateDto(w: {
  id: string;
  code: string;
  status: WinningStatus;
  claimBy: Date;
  createdAt: Date;
  handedOverAt: Date | null;
}) {
  return {
    id: w.id,
    code: w.code,
    status: w.status,
    statusLabel: WINNING_STATUS_LABELS_FR[w.status],
    claimBy: w.claimBy.toISOString(),
    createdAt: w.createdAt.toISOString(),
    handedOverAt: w.handedOverAt?.toISOString() ?? null,
  };
}

function newClaimCode(): string {
  let code = "";
  for (let i = 0; i < 6; i++) code += CLAIM_CODE_ALPHABET[secureRandomBelow(CLAIM_CODE_ALPHABET.length)];
  return code;
}

/** The pseudonym a participant has in a contest's published list: never their account id. */
export const participantIdOf = async (contestId: string, userId: string) =>
  `p-${(await sha256Hex(`${contestId}:${userId}`)).slice(0, 16)}`;

type NewWinning = {
  shopId: string;
  contestId: string;
  prizeId: string;
  lotId: string;
  entryId: string | null;
  userId: string;
  drawRank: number | null;
  claimDays: number;
  handover: "counter" | "points" | "voucher";
  points: number | null;
  lotName: string;
  now: Date;
};

/**
 * Records a lot won, with a fresh 6-character code (a clash with another code of the shop is retried). A lot of
 * points is credited to the shopper's card at once (a `bonus` ledger entry) and is handed over from the start.
 */
export async function insertWinning(tx: Tx, w: NewWinning) {
  const claimBy = new Date(w.now.getTime() + w.claimDays * 86_400_000);
  const credited = w.handover === "points" && w.points;
  for (let attempt = 0; attempt < 8; attempt++) {
    const [row] = await tx
      .insert(contestWinnings)
      .values({
        shopId: w.shopId,
        contestId: w.contestId,
        prizeId: w.prizeId,
        lotId: w.lotId,
        entryId: w.entryId,
        userId: w.userId,
        drawRank: w.drawRank,
        code: newClaimCode(),
        claimBy,
        status: credited ? "handed_over" : "to_hand_over",
        handedOverAt: credited ? w.now : null,
        createdAt: w.now,
      })
      .onConflictDoNothing({ target: [contestWinnings.shopId, contestWinnings.code] })
      .returning();
    if (!row) continue;
    if (credited) {
      await tx.insert(cards).values({ shopId: w.shopId, userId: w.userId }).onConflictDoNothing();
      await tx.execute(sql`
        insert into ${ledgerEntries} (card_id, shop_id, kind, delta, actor_id, reason, ref_id)
        select c.id, ${w.shopId}, 'bonus', ${w.points}, null, ${`Lot gagné : ${w.lotName}`}, ${row.id}
        from ${cards} c where c.shop_id = ${w.shopId} and c.user_id = ${w.userId}`);
    }
    return row;
  }
  throw new AppError("INTERNAL", { message: "could not find a free claim code" });
}
