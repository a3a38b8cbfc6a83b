import { sql } from "drizzle-orm";
import { applyMergeFields, type MergeValues, mergeValues } from "../../../domain/messages/newsletter-blocks.ts";
import type { CardMode } from "../../../domain/format.ts";
import type { Db } from "../../db/client.ts";

/**
 * Merge fields ({{prenom}}, {{points}}, {{prochaine_recompense}}: newsletter-blocks.ts owns them and their values) in
 * an automation's title and text (issue 27, ADR 0046). Each recipient's values are worked out once, when their
 * occasion is decided — the moment the message is sent — and kept on the occasion's row; every channel (in-app, push,
 * SMS, e-mail) fills the message with those, in one pass (applyMergeFields), so a copy read later says what was
 * true when it left.
 */
export type FrozenValues = MergeValues;

/** Works out and keeps the values of these occasions (all of one shop), in one statement. */
export async function freezeMergeValues(db: Db, shopId: string, occasionIds: readonly string[]) {
  if (occasionIds.length === 0) return;
  const ids = sql.join(
    occasionIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const [shop] = (await db.execute<{ card_mode: CardMode }>(sql`select card_mode from shops where id = ${shopId}`))
    .rows;
  const rewards = (
    await db.execute<{ title: string; cost: number }>(sql`
      select title, cost from rewards where shop_id = ${shopId} and is_active and archived_at is null`)
  ).rows.map((r) => ({ title: r.title, cost: Number(r.cost) }));
  const people = await db.execute<{ id: string; first_name: string | null; balance: number }>(sql`
    select o.id, p.first_name, c.balance from automation_occasions o join cards c on c.id = o.card_id
    left join profiles p on p.id = o.user_id where o.id in (${ids})`);
  if (people.rows.length === 0) return;
  const values = people.rows.map((r) => {
    const merge = mergeValues({
      firstName: r.first_name,
      balance: Number(r.balance),
      mode: shop?.card_mode ?? "points",
      rewards,
    });
    return sql`(${r.id}, ${JSON.stringify(merge)}::jsonb)`;
  });
  await db.execute(sql`
    update automation_occasions o set merge = v.merge from (values ${sql.join(values, sql`, `)}) v(id, merge)
    where o.id = v.id`);
}

/** The values kept for this recipient of this message, or null (a message that is no automation's). */
export async function frozenValuesOf(db: Db, messageId: string, userId: string): Promise<FrozenValues | null> {
  const [row] = (
    await db.execute<{ merge: FrozenValues | null }>(sql`
      select merge from automation_occasions where message_id = ${messageId} and user_id = ${userId} limit 1`)
  ).rows;
  return row?.merge ?? null;
}

/** A message's title and text as this recipient reads them: filled with their values (none: as written). */
export function filledText<T extends { title: string; body: string }>(message: T, values: FrozenValues | null): T {
  if (!values) return message;
  return { ...message, title: applyMergeFields(message.title, values), body: applyMergeFields(message.body, values) };
}
