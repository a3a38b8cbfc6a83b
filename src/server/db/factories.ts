import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Auth } from "../auth.ts";
import type { Db } from "./client.ts";
import type { WeeklyHours } from "../../domain/loyalty/hours.ts";
import type { CardRules } from "../../domain/loyalty/scan-rules.ts";
import type { ShopCategory } from "../../domain/schemas/shops.ts";
import { insertShopRows } from "../modules/shops/shops.service.ts";
import { slugify } from "../../domain/loyalty/shop-text.ts";
import { cards, ledgerEntries, member, profiles, rewards, scans, shops, user } from "./schema/index.ts";

/**
 * One set of factories for the seed and the tests (CONVENTIONS 11): unique e-mails
 * and slugs by default, so tests run in parallel without resets.
 */
export type FactoryDeps = { db: Db; auth: Auth };

const unique = () => randomUUID().slice(0, 8);

export type CreateUserInput = {
  email?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  role?: "user" | "admin";
  emailVerified?: boolean;
  /** No password (no credential account): for tests that open sessions directly, skipping the slow hash. */
  withoutPassword?: boolean;
};

export async function createUser(deps: FactoryDeps, input: CreateUserInput = {}) {
  const ctx = await deps.auth.$context;
  const email = (input.email ?? `user-${unique()}@test.fidele.local`).toLowerCase();
  const password = input.password ?? `mot-de-passe-${unique()}`;
  const firstName = input.firstName ?? "Camille";
  const lastName = input.lastName ?? "Martin";
  const created = await ctx.internalAdapter.createUser({
    email,
    name: `${firstName} ${lastName}`,
    emailVerified: input.emailVerified ?? true,
    role: input.role ?? "user",
  }, { method: "admin" });
  if (!input.withoutPassword) {
    await ctx.internalAdapter.linkAccount({
      userId: created.id,
      providerId: "credential",
      accountId: created.id,
      password: await ctx.password.hash(password),
    });
  }
  await deps.db
    .insert(profiles)
    .values({ id: created.id, firstName, lastName })
    .onConflictDoUpdate({ target: profiles.id, set: { firstName, lastName } });
  return { id: created.id, email, password, firstName, lastName };
}

export type CreateShopInput = {
  ownerId: string;
  name?: string;
  slug?: string;
  category?: ShopCategory;
  address?: string;
  city?: string;
  postalCode?: string;
  phone?: string;
  siret?: string | null;
  lat?: number | null;
  lng?: number | null;
  /** Card rules (defaults: DEFAULT_CARD_RULES, stamps with a 4 h cooldown). */
  rules?: Partial<CardRules>;
  /** Seven days, Monday first; default: no hours set. */
  weeklyHours?: WeeklyHours;
  status?: "active" | "suspended";
};

/**
 * A shop is a better-auth organization; its creator is its owner. The shop row
 * carries its loyalty settings (rules, design, code key), as sign-up makes it.
 */
export async function createShop(deps: FactoryDeps, input: CreateShopInput) {
  const name = input.name ?? `Boutique ${unique()}`;
  const slug = input.slug ?? `boutique-${unique()}`;
  const shop = await deps.db.transaction((tx) =>
    insertShopRows(tx as unknown as Db, {
      ownerId: input.ownerId,
      name,
      slug,
      category: input.category ?? "boulangerie",
      address: input.address ?? "12 rue du Marché",
      city: input.city ?? "Lyon",
      postalCode: input.postalCode ?? "69001",
      phone: input.phone ?? "04 78 00 00 00",
      siret: input.siret ?? null,
      lat: input.lat ?? null,
      lng: input.lng ?? null,
      rules: input.rules,
    }),
  );
  if (input.weeklyHours || input.status) {
    await deps.db
      .update(shops)
      .set({
        ...(input.weeklyHours ? { weeklyHours: input.weeklyHours } : {}),
        ...(input.status ? { status: input.status, suspendedAt: input.status === "suspended" ? new Date() : null } : {}),
      })
      .where(eq(shops.id, shop.id));
  }
  return { id: shop.id, name, slug, scanUid: shop.scanUid };
}

type RecordVisitInput = {
  shopId: string;
  userId: string;
  /** When the visit happened (history for the seed and for tests of reports). */
  at: Date;
  delta?: number;
  kind?: "scan" | "double_points";
  reason?: string | null;
  flags?: ("shared_device" | "outside_hours")[];
  deviceId?: string | null;
};

/**
 * A credited visit at a given time, written as the scan path writes it (scan row,
 * ledger entry, card totals through the ledger trigger), without its rules: for
 * back-dated history only. Live scans go through `performScan`.
 */
export async function recordVisit(deps: FactoryDeps, input: RecordVisitInput) {
  const delta = input.delta ?? 1;
  return deps.db.transaction(async (tx) => {
    await tx.insert(cards).values({ shopId: input.shopId, userId: input.userId }).onConflictDoNothing();
    const [card] = await tx
      .select({ id: cards.id })
      .from(cards)
      .where(and(eq(cards.shopId, input.shopId), eq(cards.userId, input.userId)));
    const scanId = randomUUID();
    const key = randomUUID();
    await tx.insert(scans).values({
      id: scanId,
      shopId: input.shopId,
      userId: input.userId,
      actorId: input.userId,
      cardId: card!.id,
      scanUid: "history",
      outcome: "accepted",
      method: "rotating",
      delta,
      multiplier: input.kind === "double_points" ? 2 : 1,
      flags: input.flags ?? [],
      deviceId: input.deviceId ?? null,
      idempotencyKey: key,
      response: { outcome: "accepted", delta, history: true },
      createdAt: input.at,
    });
    await tx.insert(ledgerEntries).values({
      cardId: card!.id,
      shopId: input.shopId,
      kind: input.kind ?? "scan",
      delta,
      actorId: input.userId,
      reason: input.reason ?? null,
      refId: scanId,
      idempotencyKey: key,
      createdAt: input.at,
    });
    await tx
      .update(cards)
      .set({
        visits: sql`${cards.visits} + 1`,
        lastScanAt: sql`greatest(${cards.lastScanAt}, ${input.at.toISOString()}::timestamptz)`,
        createdAt: sql`least(${cards.createdAt}, ${input.at.toISOString()}::timestamptz)`,
      })
      .where(eq(cards.id, card!.id));
    return { cardId: card!.id, scanId };
  });
}

export async function addStaff(deps: FactoryDeps, shopId: string, userId: string, role: "member" | "admin" = "member") {
  await deps.db.insert(member).values({ id: randomUUID(), organizationId: shopId, userId, role, createdAt: new Date() });
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select().from(user).where(eq(user.email, email.toLowerCase())).limit(1);
  return row;
}

type CreateRewardInput = {
  shopId: string;
  title?: string;
  description?: string | null;
  cost?: number;
  stock?: number | null;
  perCustomerLimit?: number | null;
  validFrom?: string | null;
  validUntil?: string | null;
  kind?: "repeatable" | "ladder";
  isActive?: boolean;
  position?: number;
};

/** A reward of a shop, as /admin/ajouter-un-reward makes it. */
export async function createReward(deps: FactoryDeps, input: CreateRewardInput) {
  const title = input.title ?? `Récompense ${unique()}`;
  const [row] = await deps.db
    .insert(rewards)
    .values({
      shopId: input.shopId,
      slug: `${slugify(title).slice(0, 50)}-${unique().slice(0, 5)}`,
      title,
      description: input.description ?? null,
      cost: input.cost ?? 10,
      stock: input.stock ?? null,
      perCustomerLimit: input.perCustomerLimit ?? null,
      validFrom: input.validFrom ?? null,
      validUntil: input.validUntil ?? null,
      kind: input.kind ?? "repeatable",
      isActive: input.isActive ?? true,
      position: input.position ?? 0,
    })
    .returning();
  return row!;
}

/** Points for a card without the scan rules (a `bonus` ledger entry): for tests and the demo. */
export async function grantPoints(deps: FactoryDeps, input: { shopId: string; userId: string; points: number; reason?: string }) {
  await deps.db.insert(cards).values({ shopId: input.shopId, userId: input.userId }).onConflictDoNothing();
  const [card] = await deps.db
    .select({ id: cards.id })
    .from(cards)
    .where(and(eq(cards.shopId, input.shopId), eq(cards.userId, input.userId)));
  if (input.points === 0) return { cardId: card!.id };
  await deps.db.insert(ledgerEntries).values({
    cardId: card!.id,
    shopId: input.shopId,
    kind: "bonus",
    delta: input.points,
    actorId: null,
    reason: input.reason ?? "Bonus de bienvenue",
  });
  return { cardId: card!.id };
}
