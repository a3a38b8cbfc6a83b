import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import type { Deps } from "../../lib/context.ts";
import { mailTemplates } from "../mail/templates.ts";

/**
 * « Supprimer mon compte » confirmed by an e-mail code, for an account without a password (or whose password is
 * forgotten): six digits, mailed (the outbox keeps it without SMTP), valid ERASE_CODE_MINUTES, one at a time (a new
 * one replaces the last), stored hashed in better-auth's `verification` table under `erase:<userId>` — which the
 * erasure itself removes. Sending is throttled in the route; so are attempts (the erase throttle).
 */
const ERASE_CODE_MINUTES = 15;

const identifierOf = (userId: string) => `erase:${userId}`;
const hash = (code: string) => createHash("sha256").update(code).digest("hex");

export async function sendEraseCode(deps: Deps, userId: string) {
  const [me] = (await deps.db.execute<{ email: string }>(sql`select email from "user" where id = ${userId}`)).rows;
  if (!me) throw new AppError("UNAUTHENTICATED");
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  await deps.db.transaction(async (tx) => {
    await tx.execute(sql`delete from verification where identifier = ${identifierOf(userId)}`);
    await tx.execute(sql`
      insert into verification (id, identifier, value, expires_at)
      values (gen_random_uuid()::text, ${identifierOf(userId)}, ${hash(code)},
        now() + make_interval(mins => ${ERASE_CODE_MINUTES}))`);
  });
  await deps.mailer.send({ to: me.email, kind: "erase-code", ...mailTemplates["erase-code"]({ code, minutes: ERASE_CODE_MINUTES }) });
  return { sentTo: me.email, minutes: ERASE_CODE_MINUTES };
}

/** The code is right and still valid (it is used up by the erasure, which deletes it). */
export async function checkEraseCode(deps: Deps, userId: string, code: string) {
  const [row] = (
    await deps.db.execute<{ value: string }>(sql`
      select value from verification where identifier = ${identifierOf(userId)} and expires_at > now()
      order by created_at desc limit 1`)
  ).rows;
  const expected = row ? Buffer.from(row.value, "hex") : null;
  const given = Buffer.from(hash(code.trim()), "hex");
  if (!expected || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new AppError("VALIDATION", {
      userMessage: "Code incorrect ou expiré : votre compte n'a pas été supprimé.",
      fields: { code: "Code incorrect ou expiré." },
    });
  }
}
