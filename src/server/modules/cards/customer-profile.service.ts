import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import type { CardMode } from "../../../domain/format.ts";
import { LEDGER_KIND_LABELS_FR } from "../../../domain/loyalty/ledger.ts";
import { REDEMPTION_STATUS_LABELS_FR } from "../../../domain/loyalty/rewards.ts";
import type { Db } from "../../db/client.ts";
import { cards, customerNotes, ledgerEntries, redemptions } from "../../db/schema/index.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";

/**
 * /profile/{id} (issue 16, item 8). The person themself sees their own public profile; a team member of a shop
 * where the person holds a card sees them as that shop does (card, ledger, rewards, the shop's private note), for
 * their shops only; anyone else — and an id that does not exist — gets the same 404, to the byte.
 */
const profileNotFound = () => new AppError("NOT_FOUND", { userMessage: "Ce profil est introuvable." });

type PersonRow = {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string;
  created_at: Date | string;
};

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export async function getProfileView(db: Db, viewerId: string, id: string) {
  if (id.length > 100) throw profileNotFound();
  const [person] = (
    await db.execute<PersonRow>(sql`
      select u.id, p.first_name, p.last_name, u.email, u.created_at
      from "user" u left join profiles p on p.id = u.id where u.id = ${id}`)
  ).rows;
  if (!person) throw profileNotFound();

  if (viewerId === id) {
    const own = await db.execute<{
      shop_name: string;
      slug: string;
      card_mode: CardMode;
      balance: number;
      visits: number;
    }>(sql`
      select s.name as shop_name, s.slug, s.card_mode, c.balance, c.visits
      from cards c join shops s on s.id = c.shop_id where c.user_id = ${id} order by s.name`);
    return {
      kind: "self" as const,
      person: { id, firstName: person.first_name, lastName: person.last_name, memberSince: iso(person.created_at) },
      cards: own.rows.map((r) => ({
        shopName: r.shop_name,
        slug: r.slug,
        mode: r.card_mode,
        balance: r.balance,
        visits: r.visits,
      })),
    };
  }

  // The viewer's shops where this person is a customer: the authorisation and the data come from one query.
  const shared = await db.execute<{
    shop_id: string;
    shop_name: string;
    card_mode: CardMode;
    role: string;
    card_id: string;
    balance: number;
    lifetime: number;
    visits: number;
    last_scan_at: Date | string | null;
    card_created_at: Date | string;
    note: string | null;
  }>(sql`
    select s.id as shop_id, s.name as shop_name, s.card_mode, m.role, c.id as card_id, c.balance, c.lifetime, c.visits,
           c.last_scan_at, c.created_at as card_created_at, n.note
    from member m
    join shops s on s.id = m.organization_id
    join cards c on c.shop_id = s.id and c.user_id = ${id}
    left join customer_notes n on n.shop_id = s.id and n.user_id = ${id}
    where m.user_id = ${viewerId}
    order by s.name`);
  if (shared.rows.length === 0) throw profileNotFound();

  const cardIds = shared.rows.map((r) => r.card_id);
  const entries = await db
    .select({
      id: ledgerEntries.id,
      cardId: ledgerEntries.cardId,
      kind: ledgerEntries.kind,
      delta: ledgerEntries.delta,
      reason: ledgerEntries.reason,
      createdAt: ledgerEntries.createdAt,
    })
    .from(ledgerEntries)
    .where(inArray(ledgerEntries.cardId, cardIds))
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
    .limit(200);
  const rewards = await db
    .select({
      id: redemptions.id,
      cardId: redemptions.cardId,
      title: redemptions.title,
      cost: redemptions.cost,
      status: redemptions.status,
      createdAt: redemptions.createdAt,
    })
    .from(redemptions)
    .where(inArray(redemptions.cardId, cardIds))
    .orderBy(desc(redemptions.createdAt))
    .limit(100);

  return {
    kind: "shop" as const,
    person: {
      id,
      firstName: person.first_name,
      lastName: person.last_name,
      email: person.email,
    },
    shops: shared.rows.map((r) => ({
      shopId: r.shop_id,
      shopName: r.shop_name,
      card: {
        id: r.card_id,
        mode: r.card_mode,
        balance: r.balance,
        lifetime: r.lifetime,
        visits: r.visits,
        lastScanAt: iso(r.last_scan_at),
        createdAt: iso(r.card_created_at),
      },
      note: r.note ?? "",
      entries: entries
        .filter((e) => e.cardId === r.card_id)
        .slice(0, 50)
        .map(({ cardId: _c, ...e }) => ({
          ...e,
          kindLabel: LEDGER_KIND_LABELS_FR[e.kind],
          createdAt: e.createdAt.toISOString(),
        })),
      rewards: rewards
        .filter((x) => x.cardId === r.card_id)
        .map(({ cardId: _c, ...x }) => ({
          ...x,
          statusLabel: REDEMPTION_STATUS_LABELS_FR[x.status],
          createdAt: x.createdAt.toISOString(),
        })),
    })),
  };
}

/** The shop's private note about a customer: only where the person holds a card at this shop (else 404). */
export async function saveCustomerNote(db: Db, access: ShopAccess, userId: string, note: string) {
  const [card] = await db
    .select({ id: cards.id })
    .from(cards)
    .where(and(eq(cards.shopId, shopScope(access)), eq(cards.userId, userId)))
    .limit(1);
  if (!card) throw profileNotFound();
  const text = note.trim();
  if (text === "") {
    await db
      .delete(customerNotes)
      .where(and(eq(customerNotes.shopId, access.shopId), eq(customerNotes.userId, userId)));
    return { note: "" };
  }
  await db
    .insert(customerNotes)
    .values({ shopId: access.shopId, userId, note: text, updatedBy: access.userId })
    .onConflictDoUpdate({
      target: [customerNotes.shopId, customerNotes.userId],
      set: { note: text, updatedBy: access.userId, updatedAt: sql`now()` },
    });
  return { note: text };
}
