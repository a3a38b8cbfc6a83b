import { type CardMode, formatAmount } from "../format.ts";
import { rewardsGlanceFr, stampsOfGoalFr } from "../phrases.ts";
import type { CardDesign } from "../schemas/shops.ts";

/**
 * What a card says in a phone's wallet (issue 26, ADR 0045), once for every place that shows it: the Apple pass
 * (pass.json), the Google Wallet object, and the preview in the owner's card designer. A pass's barcode is static
 * between updates, so it cannot be the counter's rotating code: it is the shopper's personal code (« Ma carte
 * client »), which staff scan at the counter under the usual cooldowns and caps.
 */
type PassSource = {
  shop: {
    name: string;
    address: string;
    postalCode: string;
    city: string;
    lat: number | null;
    lng: number | null;
    design: CardDesign;
    /** Deleted by its owner: the pass is void. */
    isClosed: boolean;
  };
  mode: CardMode;
  stampsGoal: number;
  balance: number;
  rewards: { reachable: number; next: { title: string; missing: number } | null };
  /** The shopper's personal code: what the counter scans (the QR) and types (the display). */
  personalCode: { qr: string; display: string } | null;
  /**
   * The holder's bundles and gift cards at this shop with something left and still valid, soonest to end first
   * (ADR 0049): « 7 unités », « 17,50 € », and their last day in French.
   */
  prepaid?: { title: string; balance: string; lastDay: string }[];
};

type Field = { key: string; label: string; value: string };

export type PassContent = {
  shopName: string;
  description: string;
  colors: CardDesign;
  /** The balance, big on the front; `changeMessage` is what the lock screen says when it changes. */
  balance: Field & { changeMessage: string };
  /** Rewards ready, and the next one to aim for. */
  rewards: Field | null;
  place: Field;
  /** Bundles and gift cards: what is left of each (the front shows the first, the back every one with its end). */
  prepaid: Field[];
  /** Where the pass comes up on the lock screen (the shop's pinned position), or null. */
  location: { latitude: number; longitude: number; relevantText: string } | null;
  barcode: { message: string; altText: string } | null;
  /** The back of the pass. */
  back: Field[];
  voided: boolean;
};

/** « Votre solde : %@ »: the value replaces %@ (Apple's changeMessage). */
const BALANCE_CHANGE_MESSAGE = "Votre solde : %@";

function balanceFr(mode: CardMode, balance: number, stampsGoal: number): string {
  return mode === "stamps" ? stampsOfGoalFr(balance, stampsGoal) : formatAmount("points", balance);
}

export function passContent(source: PassSource): PassContent {
  const { shop } = source;
  const place = `${shop.address}, ${shop.postalCode} ${shop.city}`;
  const rewardsLine = rewardsGlanceFr(source.mode, source.rewards);
  const back: Field[] = [
    {
      key: "how",
      label: "Au comptoir",
      value:
        "Montrez ce code : l'équipe le scanne pour créditer votre passage, comme « Ma carte client » dans l'application Fidèle.",
    },
  ];
  if (source.personalCode) back.push({ key: "code", label: "Ma carte client", value: source.personalCode.display });
  const prepaid = source.prepaid ?? [];
  for (const [i, p] of prepaid.entries())
    back.push({ key: `prepaid-end-${i}`, label: p.title, value: `${p.balance}, valable jusqu'au ${p.lastDay} inclus` });
  back.push({ key: "address", label: "Adresse", value: place });
  return {
    shopName: shop.name,
    description: `Carte de fidélité ${shop.name}`,
    colors: shop.design,
    balance: {
      key: "balance",
      label: source.mode === "stamps" ? "Tampons" : "Points",
      value: balanceFr(source.mode, source.balance, source.stampsGoal),
      changeMessage: BALANCE_CHANGE_MESSAGE,
    },
    rewards: rewardsLine ? { key: "rewards", label: "Récompenses", value: rewardsLine } : null,
    place: { key: "place", label: "Boutique", value: `${shop.postalCode} ${shop.city}` },
    prepaid: prepaid.map((p, i) => ({ key: `prepaid-${i}`, label: p.title, value: p.balance })),
    location:
      shop.lat !== null && shop.lng !== null
        ? { latitude: shop.lat, longitude: shop.lng, relevantText: `${shop.name} est tout près : montrez votre carte.` }
        : null,
    barcode: source.personalCode ? { message: source.personalCode.qr, altText: source.personalCode.display } : null,
    back,
    voided: shop.isClosed,
  };
}
