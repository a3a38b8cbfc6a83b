import { randomInt, randomUUID } from "node:crypto";
import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { formatAmount } from "../../../domain/format.ts";
import { type ImportLine, readImportCsv } from "../../../domain/loyalty/import-csv.ts";
import { CLAIM_CODE_LENGTH, formatClaimCode, prepaidAmountLabel } from "../../../domain/loyalty/prepaid.ts";
import { REDEMPTION_CODE_ALPHABET } from "../../../domain/loyalty/rewards.ts";
import { localParts } from "../../../domain/loyalty/time.ts";
import type { Db } from "../../db/client.ts";
import { importInvitations, shops } from "../../db/schema/index.ts";
import { recordAudit } from "../../lib/audit.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";

/**
 * A shop's import of its former customers and balances (issue 28 item 4, ADR 0049). Nothing here makes an account:
 * each valid line becomes an invitation with a claim code the owner hands over (printed or shown); the person
 * claims it once signed in (holdings.service.ts claimCode → fidele_claim), which credits the ledgers once.
 */

async function importShop(db: Db, access: ShopAccess) {
  const [shop] = await db
    .select({ id: shops.id, tz: shops.timezone, mode: shops.cardMode })
    .from(shops)
    .where(eq(shops.id, shopScope(access)))
    .limit(1);
  if (!shop) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  return shop;
}

/** Addresses of this shop's invitations still waiting: a second import of the same person is a duplicate. */
async function waitingEmails(db: Db, shopId: string) {
  const rows = await db
    .select({ email: importInvitations.email })
    .from(importInvitations)
    .where(
      and(
        eq(importInvitations.shopId, shopId),
        isNull(importInvitations.claimedAt),
        isNotNull(importInvitations.email),
      ),
    );
  return new Set(rows.map((r) => r.email!));
}

async function read(db: Db, access: ShopAccess, csv: string) {
  const shop = await importShop(db, access);
  const today = localParts(new Date(), shop.tz).date;
  const { lines, headerError } = readImportCsv(csv, {
    today,
    mode: shop.mode,
    knownEmails: await waitingEmails(db, shop.id),
  });
  if (headerError) throw new AppError("VALIDATION", { userMessage: headerError, fields: { csv: headerError } });
  return { shop, lines };
}

const count = (lines: ImportLine[], status: ImportLine["status"]) => lines.filter((l) => l.status === status).length;

/** What an import would do, line by line (the page lists errors and duplicates first). */
export async function previewImport(db: Db, access: ShopAccess, csv: string) {
  const { lines } = await read(db, access, csv);
  return {
    counts: { ok: count(lines, "ok"), duplicate: count(lines, "duplicate"), error: count(lines, "error") },
    lines: lines.map((l) =>
      l.status === "error"
        ? { line: l.line, status: l.status, summary: null, messages: l.messages }
        : { line: l.line, status: l.status, summary: l.summary, messages: l.status === "duplicate" ? l.messages : [] },
    ),
  };
}

function claimCode(): string {
  let code = "";
  for (let i = 0; i < CLAIM_CODE_LENGTH; i++)
    code += REDEMPTION_CODE_ALPHABET[randomInt(REDEMPTION_CODE_ALPHABET.length)];
  return code;
}

/** Rows per INSERT: 10 000 lines in 10 statements, one transaction. */
const INSERT_BATCH = 1_000;

/** Reads the file again and keeps the valid lines as invitations, in one transaction. */
export async function commitImport(db: Db, access: ShopAccess, csv: string) {
  const { shop, lines } = await read(db, access, csv);
  const batchId = randomUUID();
  const ok = lines.filter((l) => l.status === "ok");
  const values = ok.map((l) => ({
    shopId: shop.id,
    batchId,
    line: l.line,
    code: claimCode(),
    firstName: l.row.firstName,
    lastName: l.row.lastName,
    email: l.row.email,
    points: l.row.points,
    prepaidKind: l.row.prepaid?.kind ?? null,
    prepaidAmount: l.row.prepaid?.amount ?? null,
    prepaidTitle: l.row.prepaid?.title ?? null,
    // Usable through that day in the shop's time zone: the first instant it cannot is the midnight after.
    prepaidExpiresAt: l.row.prepaid
      ? sql`((${l.row.prepaid.lastDay}::date + 1)::timestamp at time zone ${shop.tz})`
      : null,
    createdBy: access.userId,
  }));
  await db.transaction(async (tx) => {
    for (let i = 0; i < values.length; i += INSERT_BATCH)
      await tx.insert(importInvitations).values(values.slice(i, i + INSERT_BATCH));
    await recordAudit(tx, {
      actorId: access.userId,
      shopId: access.shopId,
      action: "import.customers",
      details: { batchId, created: ok.length, duplicates: count(lines, "duplicate"), errors: count(lines, "error") },
    });
  });
  return {
    batchId,
    counts: { created: ok.length, duplicate: count(lines, "duplicate"), error: count(lines, "error") },
  };
}

/** The invitations of the shop, latest import first: the codes to hand over, and which were claimed. */
export async function listImportInvitations(db: Db, access: ShopAccess, q: { batchId?: string; limit: number }) {
  const shop = await importShop(db, access);
  const rows = await db
    .select()
    .from(importInvitations)
    .where(
      and(
        eq(importInvitations.shopId, shop.id),
        q.batchId === undefined ? undefined : eq(importInvitations.batchId, q.batchId),
      ),
    )
    .orderBy(desc(importInvitations.createdAt), importInvitations.line)
    .limit(q.limit);
  return {
    invitations: rows.map((r) => ({
      id: r.id,
      line: r.line,
      name: [r.firstName, r.lastName].filter(Boolean).join(" ") || null,
      email: r.email,
      code: formatClaimCode(r.code),
      pointsLabel: r.points > 0 ? formatAmount(shop.mode, r.points) : null,
      prepaidLabel:
        r.prepaidKind && r.prepaidAmount
          ? `${r.prepaidTitle} : ${prepaidAmountLabel(r.prepaidKind, r.prepaidAmount)}`
          : null,
      claimed: r.claimedAt !== null,
    })),
  };
}
