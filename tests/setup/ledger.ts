import { sql } from "drizzle-orm";
import { LIFETIME_KINDS } from "../../src/domain/loyalty/ledger.ts";
import type { Db } from "../../src/server/db/client.ts";

const lifetimeKinds = sql.raw(LIFETIME_KINDS.map((k) => `'${k}'`).join(", "));

/**
 * Cards whose stored totals differ from their ledger (all cards, or one shop's): the stored figures are caches of
 * the ledger, kept by its trigger. Test files end with this check, database-wide on a shared PostgreSQL database.
 */
export async function findLedgerMismatches(db: Db, shopId?: string) {
  const result = await db.execute<{
    id: string;
    balance: number;
    ledger_balance: number;
    lifetime: number;
    ledger_lifetime: number;
  }>(sql`
    select c.id, c.balance, t.balance as ledger_balance, c.lifetime, t.lifetime as ledger_lifetime
    from cards c
    join lateral (
      select coalesce(sum(l.delta), 0)::int as balance,
             coalesce(sum(l.delta) filter (where l.kind in (${lifetimeKinds})), 0)::int as lifetime
      from ledger_entries l where l.card_id = c.id
    ) t on true
    where (${shopId ?? null}::text is null or c.shop_id = ${shopId ?? null}::text)
      and (c.balance <> t.balance or c.lifetime <> t.lifetime)`);
  return result.rows;
}

/** Prepaid holdings whose balance differs from the sum of their ledger (ADR 0049), of one shop or of all. */
export async function findPrepaidMismatches(db: Db, shopId?: string) {
  const result = await db.execute<{ id: string; balance: number; ledger_balance: number }>(sql`
    select h.id, h.balance, coalesce(sum(e.delta), 0)::int as ledger_balance
    from prepaid_holdings h left join prepaid_entries e on e.holding_id = h.id
    where (${shopId ?? null}::text is null or h.shop_id = ${shopId ?? null}::text)
    group by h.id, h.balance
    having h.balance <> coalesce(sum(e.delta), 0)`);
  return result.rows;
}
