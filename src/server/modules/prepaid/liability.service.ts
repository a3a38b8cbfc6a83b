import { sql } from "drizzle-orm";
import { csvDateTime } from "../../../domain/loyalty/csv.ts";
import {
  PAYMENT_METHOD_LABELS_FR,
  type PaymentMethod,
  type PrepaidKind,
  prepaidAmountLabel,
  prepaidLastDay,
} from "../../../domain/loyalty/prepaid.ts";
import { localParts } from "../../../domain/loyalty/time.ts";
import type { Db } from "../../db/client.ts";
import { recordAudit } from "../../lib/audit.ts";
import { CSV_BATCH, csvStream, type ListKeyset } from "../../lib/list-page.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { shopTimezone } from "../cards/customers.service.ts";

/**
 * What the shop owes on prepaid (ADR 0049): every unexpired balance is a liability (units still to serve, euros
 * still to honour), kept apart from points. Sales over the last 12 months are shown beside the ACPR threshold of
 * the limited-network exemption.
 */

/** Monetary and financial code L.525-6 / L.521-3: above this over 12 months, the exemption must be declared. */
const ACPR_DECLARATION_THRESHOLD_CENTS = 100_000_000;

export async function getPrepaidLiability(db: Db, access: ShopAccess) {
  const result = await db.execute<{
    kind: PrepaidKind;
    holdings: number;
    outstanding: string | number;
    waiting: number;
    expired_balance: string | number;
  }>(sql`
    select kind,
      count(*) filter (where balance > 0 and expires_at > now())::int as holdings,
      coalesce(sum(balance) filter (where expires_at > now()), 0)::bigint as outstanding,
      count(*) filter (where user_id is null and claimed_at is null and expires_at > now())::int as waiting,
      coalesce(sum(balance) filter (where expires_at <= now()), 0)::bigint as expired_balance
    from prepaid_holdings where shop_id = ${shopScope(access)}
    group by kind`);
  const [sales] = (
    await db.execute<{ cents: string | number }>(sql`
      select coalesce(sum(price_cents), 0)::bigint as cents from prepaid_holdings
      where shop_id = ${shopScope(access)} and sold_by is not null and created_at > now() - interval '12 months'
        -- A sale taken back (a negative cancel) was refunded at the till: no sale.
        and not exists (select 1 from prepaid_entries c
                        where c.holding_id = prepaid_holdings.id and c.kind = 'cancel' and c.delta < 0)`)
  ).rows;
  const byKind = (kind: PrepaidKind) => {
    const r = result.rows.find((x) => x.kind === kind);
    const outstanding = Number(r?.outstanding ?? 0);
    const expired = Number(r?.expired_balance ?? 0);
    return {
      holdings: r?.holdings ?? 0,
      waiting: r?.waiting ?? 0,
      outstanding,
      outstandingLabel: prepaidAmountLabel(kind, outstanding),
      expired,
      expiredLabel: prepaidAmountLabel(kind, expired),
    };
  };
  const salesCents = Number(sales?.cents ?? 0);
  return {
    units: byKind("units"),
    euros: byKind("euros"),
    sales12Months: { cents: salesCents, label: prepaidAmountLabel("euros", salesCents) },
    acprThreshold: {
      cents: ACPR_DECLARATION_THRESHOLD_CENTS,
      label: prepaidAmountLabel("euros", ACPR_DECLARATION_THRESHOLD_CENTS),
      reached: salesCents >= ACPR_DECLARATION_THRESHOLD_CENTS,
    },
  };
}

type LiabilityRow = {
  id: string;
  k: string;
  kind: PrepaidKind;
  title: string;
  code: string;
  balance: number;
  expires_at: string | Date;
  created_at: string | Date;
  first_name: string | null;
  last_name: string | null;
  recipient_email: string | null;
  price_cents: number | null;
  payment_method: PaymentMethod | null;
  origin: "sale" | "import";
};

/** Every holding with a balance, oldest first: the liability as a spreadsheet (streamed, lib/list-page.ts). */
export async function prepaidLiabilityCsv(db: Db, access: ShopAccess) {
  const shop = await shopTimezone(db, access);
  await recordAudit(db, { actorId: access.userId, shopId: access.shopId, action: "export.prepaid", details: {} });
  const next = async (after: ListKeyset) => {
    const rows = (
      await db.execute<LiabilityRow>(sql`
        select h.id, to_char(h.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as k, h.kind, h.title,
          h.code, h.balance, h.expires_at, h.created_at, p.first_name, p.last_name, h.recipient_email, h.price_cents,
          h.payment_method, case when h.sold_by is null then 'import' else 'sale' end as origin
        from prepaid_holdings h left join profiles p on p.id = h.user_id
        where h.shop_id = ${shopScope(access)} and h.balance > 0
          and (${after?.k ?? null}::text is null
               or (to_char(h.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), h.id) > (${after?.k ?? null}::text, ${after?.id ?? null}::text))
        order by h.created_at, h.id
        limit ${CSV_BATCH}`)
    ).rows;
    const last = rows.at(-1);
    return { rows, last: last ? { k: last.k, id: last.id } : null };
  };
  const body = csvStream(
    [
      "Produit",
      "Type",
      "Code",
      "Titulaire",
      "En attente pour",
      "Solde",
      "Valeur",
      "Valable jusqu'au",
      "Expiré",
      "Origine",
      "Prix payé (€)",
      "Paiement",
      "Vendu le",
    ],
    next,
    (r) => {
      const expiresAt = new Date(r.expires_at);
      return [
        r.title,
        r.kind === "units" ? "Carnet" : "Carte cadeau",
        r.code,
        [r.first_name, r.last_name].filter(Boolean).join(" "),
        r.recipient_email ?? "",
        r.kind === "units" ? r.balance : r.balance / 100,
        prepaidAmountLabel(r.kind, r.balance),
        prepaidLastDay(expiresAt, shop.timezone),
        expiresAt.getTime() <= Date.now(),
        r.origin === "import" ? "Reprise" : "Vente",
        r.price_cents === null ? null : r.price_cents / 100,
        r.payment_method ? PAYMENT_METHOD_LABELS_FR[r.payment_method] : "",
        csvDateTime(new Date(r.created_at), shop.timezone),
      ];
    },
  );
  return { body, filename: `prepaye-${shop.slug}-${localParts(new Date(), shop.timezone).date}.csv` };
}
