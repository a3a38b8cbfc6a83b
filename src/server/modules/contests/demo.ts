import type { Db } from "../../db/client.ts";
import type { ShopAccess } from "../../lib/shop-access.ts";
import { createContest, scheduleContest } from "./contests.service.ts";
import { createLot } from "./lots.service.ts";
import { setFeatured } from "./play.service.ts";

const DAY = 86_400_000;

/** Demo contests: a draw and a wheel at the bakery, a draw at the café, one pinned to each featured page. */
export async function seedContestsDemo(
  db: Db,
  input: { ownerId: string; bakeryId: string; cafeId: string; appUrl?: string },
) {
  const appUrl = input.appUrl ?? "";
  const as = (shopId: string): ShopAccess => ({ shopId, userId: input.ownerId, role: "platform", level: "owner" });
  const bakery = as(input.bakeryId);
  const cafe = as(input.cafeId);
  const lot = (access: ShopAccess, l: Parameters<typeof createLot>[2]) => createLot(db, access, l);
  const tarte = await lot(bakery, {
    name: "Tarte aux fruits (6 parts)",
    description: "La tarte de saison du chef",
    photo: null,
    valueCents: 1800,
    quantity: 5,
    handover: "counter",
    points: null,
    claimDays: 15,
  });
  const croissant = await lot(bakery, {
    name: "Croissant offert",
    description: null,
    photo: null,
    valueCents: 120,
    quantity: 40,
    handover: "counter",
    points: null,
    claimDays: 7,
  });
  const points = await lot(bakery, {
    name: "20 points bonus",
    description: null,
    photo: null,
    valueCents: 100,
    quantity: 20,
    handover: "points",
    points: 20,
    claimDays: 30,
  });
  const coffee = await lot(cafe, {
    name: "Un an de café (52 cafés)",
    description: "Un café par semaine pendant un an",
    photo: null,
    valueCents: 10400,
    quantity: 1,
    handover: "voucher",
    points: null,
    claimDays: 30,
  });
  const now = Date.now();
  const open = {
    startsAt: new Date(now - DAY),
    endsAt: new Date(now + 30 * DAY),
    eligibility: "confirmed" as const,
    entriesPerPerson: 1,
    spinPeriod: "day" as const,
    description: null,
  };
  const draw = await createContest(db, bakery, {
    ...open,
    kind: "draw",
    title: "Grand tirage du Marché",
    description: "Deux tartes de saison à gagner.",
    prizes: [{ lotId: tarte.id, quantity: 2, oddsBp: 0 }],
  });
  const wheel = await createContest(db, bakery, {
    ...open,
    kind: "wheel",
    title: "La roue du Marché",
    prizes: [
      { lotId: croissant.id, quantity: 1, oddsBp: 2000 },
      { lotId: points.id, quantity: 1, oddsBp: 1000 },
    ],
  });
  const anniversary = await createContest(db, cafe, {
    ...open,
    kind: "draw",
    title: "Un an de café à gagner",
    description: "Le Café des Canuts fête son anniversaire.",
    prizes: [{ lotId: coffee.id, quantity: 1, oddsBp: 0 }],
  });
  for (const [access, c] of [
    [bakery, draw],
    [bakery, wheel],
    [cafe, anniversary],
  ] as const)
    await scheduleContest(db, access, c.id, appUrl);
  await setFeatured(db, "cajvb", draw.id);
  await setFeatured(db, "1-an-giagia", anniversary.id);
  await setFeatured(db, "mabbam-giagia", wheel.id);
}
