// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cardProgress } from "../../domain/loyalty/ledger.ts";
import { DEFAULT_CARD_DESIGN } from "../../domain/schemas/shops.ts";
import { meQueryOptions, type Me } from "../lib/me.ts";
import { ActivityList } from "./activity-list.tsx";
import { CardsGlance } from "./cards-glance.tsx";
import type { MyCard } from "./loyalty/my-cards-query.ts";

/**
 * The two pieces other pages mount (the home page's "cards at a glance", /dashboard's activity), driven through
 * their API answers: fetch is answered here with the shapes of docs/api/loyalty.md.
 */
const me = {
  user: { id: "user-1", email: "lea@exemple.fr", emailVerified: true, name: "Léa Girard", isAdmin: false, twoFactorEnabled: false },
  profile: { firstName: "Léa", lastName: "Girard", birthday: null, postalCode: null, isComplete: true, consents: { email: false, sms: false, push: false } },
  memberships: [],
} as unknown as Me;

function card(i: number, stamps: number): MyCard {
  return {
    id: `card-${i}`,
    shop: { id: `shop-${i}`, slug: `boutique-${i}`, name: `Boutique ${i}`, city: "Lyon", status: "active", logoUrl: null, design: DEFAULT_CARD_DESIGN },
    mode: "stamps",
    stampsGoal: 10,
    pointsPerVisit: 1,
    balance: stamps,
    lifetime: stamps,
    visits: stamps,
    progress: cardProgress("stamps", 10, stamps),
    lastScanAt: "2026-03-02T10:00:00.000Z",
    since: "2026-01-02T10:00:00.000Z",
    canScanNow: true,
    nextScanAt: null,
  } as MyCard;
}

let routes: Record<string, (url: URL) => unknown>;
const requested: string[] = [];

function answer(input: RequestInfo | URL) {
  const url = new URL(String(input instanceof Request ? input.url : input), "http://fidele.test");
  requested.push(url.pathname + url.search);
  const route = routes[url.pathname];
  if (!route) return Promise.resolve(new Response(JSON.stringify({ code: "NOT_FOUND", message: "Introuvable." }), { status: 404 }));
  return Promise.resolve(new Response(JSON.stringify(route(url)), { status: 200, headers: { "content-type": "application/json" } }));
}

function renderWith(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(meQueryOptions().queryKey, me);
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  localStorage.clear();
  requested.length = 0;
  routes = {};
  vi.stubGlobal("fetch", vi.fn(answer));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("CardsGlance", () => {
  it("shows the three last visited cards with their progress, a link to all, and keeps a copy for offline", async () => {
    routes["/api/cards"] = () => ({ cards: [card(1, 3), card(2, 10), card(3, 0), card(4, 5)] });
    renderWith(<CardsGlance />);
    const section = await screen.findByRole("region", { name: "Vos cartes en un coup d'œil" });
    await within(section).findByText("Boutique 1");
    const tiles = within(section).getAllByRole("listitem");
    expect(tiles.map((t) => t.textContent)).toEqual(["Boutique 13 tampons sur 10", "Boutique 210 tampons sur 10", "Boutique 30 tampon sur 10"]);
    expect(within(tiles[0]!).getByRole("link").getAttribute("href")).toBe("/shop/boutique-1");
    expect(within(section).getByRole("link", { name: "Toutes (4)" }).getAttribute("href")).toBe("/cartes-de-fidelite");
    expect(JSON.parse(localStorage.getItem("fidele:cards") ?? "{}")).toMatchObject({ userId: "user-1", cards: [{ id: "card-1" }, {}, {}, {}] });
  });

  it("explains how to get a first card when there is none", async () => {
    routes["/api/cards"] = () => ({ cards: [] });
    renderWith(<CardsGlance />);
    await screen.findByText("Au comptoir d'une boutique Fidèle, scannez son code : votre carte s'ouvre et votre passage est crédité.");
    expect(screen.getByRole("link", { name: "Scanner un code" }).getAttribute("href")).toBe("/scanner");
  });

  it("shows the saved copy at once when the network fails, and never someone else's", async () => {
    localStorage.setItem("fidele:cards", JSON.stringify({ userId: "user-1", savedAt: Date.now() - 60_000, cards: [card(7, 2)] }));
    vi.stubGlobal("fetch", vi.fn(() => Promise.reject(new TypeError("Failed to fetch"))));
    renderWith(<CardsGlance />);
    expect(screen.getByText("Boutique 7")).toBeTruthy();
    cleanup();

    localStorage.setItem("fidele:cards", JSON.stringify({ userId: "someone-else", savedAt: Date.now(), cards: [card(8, 2)] }));
    renderWith(<CardsGlance />);
    expect(screen.queryByText("Boutique 8")).toBeNull();
  });
});

describe("ActivityList", () => {
  it("lists my ledger entries, newest first, and loads older ones with « Voir plus »", async () => {
    const entry = (id: string, kind: string, kindLabel: string, delta: number, mode: "stamps" | "points", reason: string | null = null) => ({
      id,
      kind,
      kindLabel,
      delta,
      reason,
      createdAt: "2026-03-02T10:00:00.000Z",
      cardId: "card-1",
      mode,
      shop: { slug: "fournil", name: "Le Fournil" },
    });
    routes["/api/cards/activity"] = (url) =>
      url.searchParams.get("before")
        ? { entries: [entry("e3", "redemption", "Récompense utilisée", -10, "points")], nextBefore: null }
        : {
            entries: [entry("e1", "scan", "Passage en boutique", 1, "stamps"), entry("e2", "adjustment", "Correction par la boutique", -1, "stamps", "Passage crédité deux fois")],
            nextBefore: "2026-03-01T09:00:00.000Z",
          };
    renderWith(<ActivityList pageSize={2} />);
    const section = await screen.findByRole("region", { name: "Mon activité récente" });
    await within(section).findByText("+1 tampon");
    expect(within(section).getByText("−1 tampon")).toBeTruthy();
    expect(within(section).getByText("« Passage crédité deux fois »")).toBeTruthy();
    expect(requested).toContain("/api/cards/activity?limit=2");

    fireEvent.click(within(section).getByRole("button", { name: "Voir plus" }));
    await within(section).findByText("−10 points");
    expect(requested).toContain(`/api/cards/activity?limit=2&before=${encodeURIComponent("2026-03-01T09:00:00.000Z")}`);
    expect(within(section).getAllByRole("listitem")).toHaveLength(3);
    expect(within(section).queryByRole("button", { name: "Voir plus" })).toBeNull();
  });

  it("says plainly when there is no activity yet", async () => {
    routes["/api/cards/activity"] = () => ({ entries: [], nextBefore: null });
    renderWith(<ActivityList />);
    await screen.findByText("Aucune activité pour l'instant. Vos passages en boutique, vos récompenses et les corrections des boutiques apparaîtront ici.");
  });
});
