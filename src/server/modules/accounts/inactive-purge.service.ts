import { sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { formatDate } from "../../../domain/format.ts";
import { recordAudit } from "../../lib/audit.ts";
import type { Deps } from "../../lib/context.ts";
import { mailTemplates } from "../mail/templates.ts";
import { eraseAccount } from "./rgpd.service.ts";

/**
 * CNIL: an account nobody has used for 3 years is warned by e-mail, then erased 30 days later unless its owner came
 * back (any sign of life after the warning clears it). Erasing goes through eraseAccount (RGPD by itself): pending
 * redemptions refunded, ledger kept without its owner. Shop owners and the platform admin are never purged here.
 * Run daily by the job accounts.purge, whose data may carry the clock (`now`, ISO), which tests use.
 */
const INACTIVE_YEARS = 3;
const PURGE_AFTER_WARNING_DAYS = 30;
const BATCH = 200;

/** Last sign of life: sign-up, the heartbeat (profiles.last_seen), a session used. */
const lastActivity = sql`greatest(u.created_at, p.last_seen,
  (select max(s.updated_at) from session s where s.user_id = u.id))`;
const exempt = sql`(coalesce(u.role, 'user') = 'admin'
  or exists (select 1 from member m where m.user_id = u.id and m.role = 'owner'))`;

export async function purgeInactiveAccounts(deps: Deps, now: Date) {
  const { db, logger } = deps;
  // Came back after the warning: the warning no longer holds.
  await db.execute(sql`
    update profiles p set purge_warned_at = null from "user" u
    where u.id = p.id and p.purge_warned_at is not null and ${lastActivity} > p.purge_warned_at`);

  const due = await db.execute<{ id: string; email: string }>(sql`
    select u.id, u.email from "user" u join profiles p on p.id = u.id
    where p.purge_warned_at is not null
      and p.purge_warned_at <= ${now.toISOString()}::timestamptz - make_interval(days => ${PURGE_AFTER_WARNING_DAYS})
      and not ${exempt}
    limit ${BATCH}`);
  let purged = 0;
  for (const row of due.rows) {
    try {
      await eraseAccount(deps, row.id, { purge: true });
      purged++;
      logger.info("accounts: purged after 3 years of inactivity", { userId: row.id });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      logger.warn("accounts: purge skipped", { userId: row.id, reason: error.code });
    }
  }

  const toWarn = await db.execute<{ id: string; email: string }>(sql`
    select u.id, u.email from "user" u join profiles p on p.id = u.id
    where p.purge_warned_at is null
      and ${lastActivity} <= ${now.toISOString()}::timestamptz - make_interval(years => ${INACTIVE_YEARS})
      and not ${exempt}
    limit ${BATCH}`);
  const purgeOn = formatDate(new Date(now.getTime() + PURGE_AFTER_WARNING_DAYS * 86_400_000));
  let warned = 0;
  for (const row of toWarn.rows) {
    // Marked first: a mail failure must not mail the person again every day; the outbox keeps the message.
    await db.execute(sql`update profiles set purge_warned_at = ${now.toISOString()}::timestamptz where id = ${row.id}`);
    await recordAudit(db, { actorId: null, action: "account.purge_warning", target: row.id, details: { purgeOn } });
    await deps.mailer.send({
      to: row.email,
      kind: "inactive-account",
      ...mailTemplates["inactive-account"]({ url: `${deps.env.APP_URL}/login`, purgeOn }),
    });
    warned++;
  }
  if (warned + purged > 0) logger.info(`accounts: ${warned} warned, ${purged} purged for inactivity`);
  return { warned, purged };
}
