import { count, eq } from "drizzle-orm";
import type { WeeklyHours } from "../../domain/loyalty/hours.ts";
import type { Logger } from "../lib/logger.ts";
import { createReward, createShop, createUser, type FactoryDeps, recordVisit } from "./factories.ts";
import { seedContestsDemo } from "../modules/contests/demo.ts";
import { EMAIL_WORDING } from "../../domain/messages/consent.ts";
import { consents, doublePointsPeriods, shops, user, vipTiers } from "./schema/index.ts";

/** Demo accounts, given in the README and the start log. Change them before real use. */
export const DEMO_ACCOUNTS = {
  admin: { email: "admin@fidele.demo", password: "fidele-admin-2026" },
  owner: { email: "commercant@fidele.demo", password: "fidele-commercant" },
  shopper: { email: "client@fidele.demo", password: "fidele-client" },
} as const;

const DAY = 24 * 60 * 60 * 1000;
/** Tuesday to Saturday with a lunch break, Sunday morning; closed on Monday. */
const BAKERY_HOURS: WeeklyHours = [
  [],
  [{ open: "07:00", close: "13:30" }, { open: "15:30", close: "19:30" }],
  [{ open: "07:00", close: "13:30" }, { open: "15:30", close: "19:30" }],
  [{ open: "07:00", close: "13:30" }, { open: "15:30", close: "19:30" }],
  [{ open: "07:00", close: "13:30" }, { open: "15:30", close: "19:30" }],
  [{ open: "07:00", close: "19:30" }],
  [{ open: "07:00", close: "13:00" }],
];
const CAFE_HOURS: WeeklyHours = [
  [{ open: "08:00", close: "19:00" }],
  [{ open: "08:00", close: "19:00" }],
  [{ open: "08:00", close: "19:00" }],
  [{ open: "08:00", close: "19:00" }],
  [{ open: "08:00", close: "01:00" }],
  [{ open: "09:00", close: "01:00" }],
  [],
];

/** Seeds the demo data on first start only (an empty user table). */
export async function seedDemo(deps: FactoryDeps, logger: Logger): Promise<boolean> {
  const [row] = await deps.db.select({ n: count() }).from(user);
  if ((row?.n ?? 0) > 0) return false;
  await createUser(deps, { ...DEMO_ACCOUNTS.admin, firstName: "Alex", lastName: "Admin", role: "admin" });
  const owner = await createUser(deps, { ...DEMO_ACCOUNTS.owner, firstName: "Sophie", lastName: "Durand" });
  const shopper = await createUser(deps, { ...DEMO_ACCOUNTS.shopper, firstName: "Lucas", lastName: "Bernard" });

  const bakery = await createShop(deps, {
    ownerId: owner.id,
    name: "Boulangerie du Marché",
    slug: "boulangerie-du-marche",
    category: "boulangerie",
    address: "12 place du Marché",
    city: "Lyon",
    postalCode: "69004",
    phone: "04 78 28 12 34",
    lat: 45.7741,
    lng: 4.8279,
    weeklyHours: BAKERY_HOURS,
    rules: { mode: "stamps", stampsGoal: 10, cooldownMinutes: 240, dailyCap: 2, allowStaticPoster: true },
  });
  await deps.db
    .update(shops)
    .set({
      description: "Pain au levain cuit sur place, viennoiseries pur beurre et pâtisseries de saison. Votre 10ᵉ passage vous offre une baguette tradition.",
      cardDesign: { background: "#7c2d12", foreground: "#fff7ed", accent: "#f59e0b", stampIcon: "croissant" },
      links: { website: "https://boulangerie-du-marche.example", instagram: null, facebook: null, tiktok: null },
      legal: {
        legalName: "SARL Durand et Fils",
        legalForm: "SARL",
        vatNumber: null,
        shareCapital: "10 000 €",
        rcs: "RCS Lyon",
        legalAddress: "12 place du Marché, 69004 Lyon",
        director: "Sophie Durand",
        contactEmail: DEMO_ACCOUNTS.owner.email,
      },
      siret: "73282932000074",
    })
    .where(eq(shops.id, bakery.id));
  await deps.db.insert(doublePointsPeriods).values({
    shopId: bakery.id,
    label: "Mercredi gourmand",
    weekdays: [3],
    startTime: "15:30",
    endTime: "19:30",
    multiplier: 2,
  });

  const cafe = await createShop(deps, {
    ownerId: owner.id,
    name: "Café des Canuts",
    slug: "cafe-des-canuts",
    category: "cafe",
    address: "3 rue d'Austerlitz",
    city: "Lyon",
    postalCode: "69004",
    phone: "04 78 39 00 11",
    lat: 45.7769,
    lng: 4.8312,
    weeklyHours: CAFE_HOURS,
    rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 120, dailyCap: 3 },
  });
  await deps.db
    .update(shops)
    .set({
      description: "Cafés de torréfacteurs lyonnais, thés et chocolats chauds. 10 points par passage.",
      cardDesign: { background: "#1e3a8a", foreground: "#eff6ff", accent: "#fbbf24", stampIcon: "coffee" },
    })
    .where(eq(shops.id, cafe.id));

  // A few customers with a month of visits, so the back-office has something to show.
  const customers = [
    shopper,
    await createUser(deps, { withoutPassword: true, firstName: "Emma", lastName: "Petit", email: "emma.petit@fidele.demo" }),
    await createUser(deps, { withoutPassword: true, firstName: "Hugo", lastName: "Moreau", email: "hugo.moreau@fidele.demo" }),
    await createUser(deps, { withoutPassword: true, firstName: "Chloé", lastName: "Laurent", email: "chloe.laurent@fidele.demo" }),
    await createUser(deps, { withoutPassword: true, firstName: "Nathan", lastName: "Roux", email: "nathan.roux@fidele.demo" }),
  ];
  // Three of them accepted the shops' e-mails when they signed up, so a first newsletter reaches someone.
  await deps.db
    .insert(consents)
    .values(customers.slice(1, 4).map((c) => ({ userId: c.id, channel: "email" as const, granted: true, wording: EMAIL_WORDING.global })));
  const now = Date.now();
  const visitDays = [[27, 20, 13, 9, 6, 3, 1], [25, 18, 11, 4], [22, 8, 2], [15, 5], [12]];
  for (const [i, days] of visitDays.entries()) {
    for (const d of days) {
      await recordVisit(deps, { shopId: bakery.id, userId: customers[i]!.id, at: new Date(now - d * DAY - (i + 2) * 3_600_000), deviceId: `demo-device-${i}` });
    }
  }
  // One visit made from a phone other accounts used: flagged for the owner.
  await recordVisit(deps, {
    shopId: bakery.id,
    userId: customers[4]!.id,
    at: new Date(now - 2 * DAY),
    deviceId: "demo-device-0",
    flags: ["shared_device"],
  });
  await recordVisit(deps, { shopId: cafe.id, userId: shopper.id, at: new Date(now - 4 * DAY), delta: 10 });
  await recordVisit(deps, { shopId: cafe.id, userId: shopper.id, at: new Date(now - 2 * DAY), delta: 20, kind: "double_points", reason: "Happy hour" });

  // Rewards, VIP levels and the birthday gift (issue 5).
  const bakeryRewards = [
    { title: "Croissant pur beurre offert", cost: 5, description: "Un croissant du jour, à emporter ou sur place." },
    { title: "Baguette tradition offerte", cost: 10, description: "Votre carte pleine : une baguette tradition, cuite sur place." },
    { title: "Tarte du jour", cost: 15, stock: 10, description: "Une tarte individuelle de saison, dans la limite du stock." },
    { title: "Pain au chocolat de bienvenue", cost: 3, kind: "ladder" as const, description: "Une seule fois, pour fêter vos débuts." },
  ];
  for (const [position, r] of bakeryRewards.entries()) await createReward(deps, { shopId: bakery.id, position, ...r });
  const cake = await createReward(deps, { shopId: bakery.id, title: "Part de gâteau d'anniversaire", cost: 1, isActive: false, position: 9 });
  await deps.db.update(shops).set({ birthdayRewardId: cake.id }).where(eq(shops.id, bakery.id));
  await deps.db.insert(vipTiers).values([
    { shopId: bakery.id, name: "Bronze", threshold: 10, multiplier: 1 },
    { shopId: bakery.id, name: "Argent", threshold: 30, multiplier: 1, rewardId: cake.id },
    { shopId: bakery.id, name: "Or", threshold: 60, multiplier: 2 },
  ]);
  const cafeRewards = [
    { title: "Espresso offert", cost: 50 },
    { title: "Cappuccino offert", cost: 80 },
    { title: "Sachet de café 250 g", cost: 300, stock: 5, description: "Torréfié à Lyon, en grains ou moulu." },
  ];
  for (const [position, r] of cafeRewards.entries()) await createReward(deps, { shopId: cafe.id, position, ...r });
  await deps.db.insert(vipTiers).values([
    { shopId: cafe.id, name: "Habitué", threshold: 100, multiplier: 1 },
    { shopId: cafe.id, name: "Connaisseur", threshold: 300, multiplier: 2 },
  ]);
  await seedContestsDemo(deps.db, { ownerId: owner.id, bakeryId: bakery.id, cafeId: cafe.id });
  logger.info("seed: demo data created");
  return true;
}
