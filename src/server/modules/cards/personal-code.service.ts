import { eq, sql } from "drizzle-orm";
import { formatPersonalCode, generatePersonalCode, PERSONAL_QR_PREFIX } from "../../../domain/loyalty/personal-code.ts";
import type { Db } from "../../db/client.ts";
import { personalCodes, profiles, user } from "../../db/schema/index.ts";
import { pgErrorCode } from "../../lib/shop-dto.ts";

/**
 * « Ma carte client »: the shopper's personal code, made on first sight and renewed on request. Showing it at
 * the counter is the shopper's consent to be credited (and to get a card) at that shop: no e-mail, no directory.
 */

function personalCodeDto(code: string, createdAt: Date) {
  return {
    code,
    display: formatPersonalCode(code),
    qr: `${PERSONAL_QR_PREFIX}${code}`,
    createdAt: createdAt.toISOString(),
  };
}

/** Inserts or replaces the user's code; a collision with another person's code (1 in 10^11) draws again. */
async function storeNewCode(db: Db, userId: string, replace: boolean) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = generatePersonalCode();
    try {
      const result = await db.execute<{ code: string; created_at: Date | string }>(sql`
        insert into personal_codes (user_id, code) values (${userId}, ${code})
        on conflict (user_id) do ${replace ? sql`update set code = excluded.code, created_at = now()` : sql`nothing`}
        returning code, created_at`);
      const row = result.rows[0];
      if (row) return personalCodeDto(row.code, new Date(row.created_at));
      // Not replacing and a code already exists (made by a concurrent first visit): that one.
      const [existing] = await db.select().from(personalCodes).where(eq(personalCodes.userId, userId)).limit(1);
      if (existing) return personalCodeDto(existing.code, existing.createdAt);
    } catch (error) {
      if (pgErrorCode(error) === "23505") continue;
      throw error;
    }
  }
  throw new Error("could not draw a free personal code");
}

export async function getMyPersonalCode(db: Db, userId: string) {
  const [existing] = await db.select().from(personalCodes).where(eq(personalCodes.userId, userId)).limit(1);
  if (existing) return personalCodeDto(existing.code, existing.createdAt);
  return storeNewCode(db, userId, false);
}

/** A new code: the old one stops working at once (a code seen over a shoulder, a screenshot shared). */
export function renewMyPersonalCode(db: Db, userId: string) {
  return storeNewCode(db, userId, true);
}

/** The holder of a personal code (for the counter), or undefined. */
export async function findByPersonalCode(db: Db, code: string) {
  const [row] = await db
    .select({ id: user.id, firstName: profiles.firstName, lastName: profiles.lastName })
    .from(personalCodes)
    .innerJoin(user, eq(user.id, personalCodes.userId))
    .leftJoin(profiles, eq(profiles.id, user.id))
    .where(eq(personalCodes.code, code))
    .limit(1);
  return row;
}
