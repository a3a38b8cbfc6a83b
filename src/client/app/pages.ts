import type { ComponentType } from "react";
import type { ReadyRoute, RoutePath } from "../../domain/routes.ts";

type PageModule = { default: ComponentType };
export type LazyPage = () => Promise<{ Component: ComponentType }>;

const page =
  (load: () => Promise<PageModule>): LazyPage =>
  async () => ({ Component: (await load()).default });

const pending = page(() => import("./pending-page.tsx"));

/**
 * Each route's page, lazily loaded so that a page's code (and the back-office's)
 * is fetched only when it is visited. Checked by the compiler: every route of SPEC §2
 * (src/domain/routes.ts) has its page here unless it is named in PENDING_ROUTES, which
 * shows "En préparation"; `npm run lint` names a route that has neither.
 */
export const PAGES = {
  // The home page's loader waits (briefly) for the newest posts, preloaded with the HTML (preloadApi in routes.ts).
  "/": () =>
    import("../features/content/pages/home-page.tsx").then((m) => ({ Component: m.default, loader: m.loader })),
  "/login": page(() => import("../features/accounts/pages/login-page.tsx")),
  "/signup": page(() => import("../features/accounts/pages/signup-page.tsx")),
  "/confirm": page(() => import("../features/accounts/pages/confirm-page.tsx")),
  "/create-profil": page(() => import("../features/accounts/pages/create-profile-page.tsx")),
  "/edit-profil": page(() => import("../features/accounts/pages/edit-profile-page.tsx")),
  "/mot-de-passe-perdu": page(() => import("../features/accounts/pages/forgot-password-page.tsx")),
  "/reset-password": page(() => import("../features/accounts/pages/reset-password-page.tsx")),
  "/change-password": page(() => import("../features/accounts/pages/change-password-page.tsx")),
  "/changer-mot-de-passe": page(() => import("../features/accounts/pages/change-password-page.tsx")),
  "/profil": page(() => import("../features/accounts/pages/profile-page.tsx")),
  "/profile/:id": page(() => import("../features/cards/pages/customer-profile-page.tsx")),
  "/admin/liste-totale-clients": page(() => import("../features/cards/pages/all-customers-page.tsx")),
  "/admin/monprofil": page(() => import("../features/accounts/pages/back-office-profile-page.tsx")),
  "/protected": page(() => import("../features/accounts/pages/security-page.tsx")),
  "/faq": page(() => import("../features/content/pages/faq-page.tsx")),
  "/cgu": page(() => import("../features/content/pages/terms-page.tsx")),
  "/mentions-legales": page(() => import("../features/content/pages/legal-notice-page.tsx")),
  "/politiques-de-confidentialite": page(() => import("../features/content/pages/privacy-page.tsx")),
  "/offre": page(() => import("../features/content/pages/offer-page.tsx")),
  "/merci": page(() => import("../features/content/pages/thanks-page.tsx")),
  "/dashboard": page(() => import("../features/content/pages/dashboard-page.tsx")),
  // Article pages bring a loader: an unknown slug becomes the app's 404 before the page renders.
  "/blog/:slug": () =>
    import("../features/content/pages/blog-page.tsx").then((m) => ({ Component: m.default, loader: m.loader })),
  "/presentation/:slug": () =>
    import("../features/content/pages/presentation-page.tsx").then((m) => ({ Component: m.default, loader: m.loader })),
  // Shopper side of shops and cards. /shop and /shop/:slug bring loaders (a redirect, and the 404 of an unknown slug).
  "/boutiques": page(() => import("../features/shops/pages/shops-page.tsx")),
  "/boutique-a-proximite": page(() => import("../features/shops/pages/nearby-page.tsx")),
  "/shop": () =>
    import("../features/shops/pages/shop-index-page.tsx").then((m) => ({ Component: m.default, loader: m.loader })),
  "/shop/:slug": () =>
    import("../features/shops/pages/shop-page.tsx").then((m) => ({ Component: m.default, loader: m.loader })),
  "/review": page(() => import("../features/shops/pages/review-page.tsx")),
  // Prepaid bundles and gift cards, imported balances (ADR 0049).
  "/recuperer": page(() => import("../features/prepaid/pages/claim-page.tsx")),
  "/admin/prepaye": page(() => import("../features/prepaid/pages/prepaid-page.tsx")),
  "/admin/import-clients": page(() => import("../features/prepaid/pages/import-page.tsx")),
  // Parrainage (issue 28): the sponsor's link, the friend's invitation, the owner's page; review requests.
  "/parrainer": page(() => import("../features/referrals/pages/sponsor-page.tsx")),
  "/parrainage/:code": page(() => import("../features/referrals/pages/invite-page.tsx")),
  "/admin/parrainage": page(() => import("../features/referrals/pages/referrals-admin-page.tsx")),
  "/admin/avis": page(() => import("../features/messages/pages/reviews-admin-page.tsx")),
  "/cartes-de-fidelite": page(() => import("../features/cards/pages/cards-page.tsx")),
  "/boutique/:scanUid": page(() => import("../features/cards/pages/scan-page.tsx")),
  "/scanner": page(() => import("../features/cards/pages/scanner-page.tsx")),
  "/scanner-auth": page(() => import("../features/cards/pages/scanner-auth-page.tsx")),
  "/reader": page(() => import("../features/cards/pages/reader-page.tsx")),
  "/tablette": page(() => import("../features/cards/pages/tablet-page.tsx")),
  "/manager": page(() => import("../features/cards/pages/manager-page.tsx")),
  // Shop sign-up and the shop's back-office (each page its own chunk; the dashboard's charts load only there).
  "/inscription-boutique": page(() => import("../features/shops/pages/register-shop-page.tsx")),
  "/result-boutique": page(() => import("../features/shops/pages/shop-created-page.tsx")),
  "/admin": page(() => import("./admin-home-page.tsx")),
  "/admin/ma-boutique": page(() => import("../features/shops/pages/shop-page-content-page.tsx")),
  "/admin/edit-societe": page(() => import("../features/shops/pages/legal-page.tsx")),
  "/admin/horaires": page(() => import("../features/shops/pages/hours-page.tsx")),
  "/admin/creativcard": page(() => import("../features/cards/pages/card-design-page.tsx")),
  "/admin/points-double": page(() => import("../features/cards/pages/double-points-page.tsx")),
  "/admin/liste-clients": page(() => import("../features/cards/pages/customers-page.tsx")),
  "/admin/liste-scans": page(() => import("../features/cards/pages/scans-page.tsx")),
  "/admin/logs": page(() => import("../features/admin/pages/logs-page.tsx")),
  "/admin/connected": page(() => import("../features/admin/pages/connected-page.tsx")),
  "/admin/sessions": page(() => import("../features/admin/pages/sessions-page.tsx")),
  "/admin/scans": page(() => import("../features/cards/pages/scans-page.tsx")),
  "/admin/invitation": page(() => import("../features/shops/pages/team-page.tsx")),
  "/accept-invitation/:token": page(() => import("../features/shops/pages/accept-invitation-page.tsx")),
  // Rewards: the shopper's reward page (its loader makes an unknown slug a 404), the live validation screen, VIP
  // levels; the counter's validation (staff and owner share one page) and the owner's catalogue.
  "/reward/:rewardSlug": () =>
    import("../features/rewards/pages/reward-page.tsx").then((m) => ({ Component: m.default, loader: m.loader })),
  "/validation-recompense/:id": page(() => import("../features/rewards/pages/redemption-page.tsx")),
  "/vip": page(() => import("../features/rewards/pages/vip-page.tsx")),
  "/validate-reward": page(() => import("../features/rewards/pages/validate-reward-page.tsx")),
  "/admin/validate-reward": page(() => import("../features/rewards/pages/validate-reward-page.tsx")),
  "/admin/recompenses": page(() => import("../features/rewards/pages/rewards-admin-page.tsx")),
  "/admin/ajouter-un-reward": page(() => import("../features/rewards/pages/reward-form-page.tsx")),
  "/admin/:product": page(() => import("../features/rewards/pages/product-page.tsx")),
  // Contests: the shopper's pages, the featured pages, the sign-in gate, and the shop's lots and contests.
  "/jeu-concours": page(() => import("../features/contests/pages/contests-page.tsx")),
  "/jeu-concours-roulette": page(() => import("../features/contests/pages/roulette-page.tsx")),
  "/jeux-concours-auth": page(() => import("../features/contests/pages/contests-auth-page.tsx")),
  "/jeu-concours-cajvb": page(() => import("../features/contests/pages/featured-cajvb-page.tsx")),
  "/jeu-concours-1-an-giagia": page(() => import("../features/contests/pages/featured-anniversary-page.tsx")),
  "/jeux-concours-mabbam-giagia": page(() => import("../features/contests/pages/featured-mabbam-page.tsx")),
  "/admin/jeux-concours": page(() => import("../features/contests/pages/admin-contests-page.tsx")),
  "/admin/gestion-des-lots": page(() => import("../features/contests/pages/prize-lots-page.tsx")),
  "/admin/gestion-des-lots-2": page(() => import("../features/contests/pages/winnings-page.tsx")),
  // Messages: the shopper's inbox and choices, a shop's composer and sent list, platform announcements.
  "/notifications": page(() => import("../features/messages/pages/notifications-page.tsx")),
  "/messages/:id": page(() => import("../features/messages/pages/message-page.tsx")),
  "/notif": page(() => import("../features/messages/pages/notif-page.tsx")),
  "/admin/envoyer-un-message": page(() => import("../features/messages/pages/compose-page.tsx")),
  "/admin/newsletter": page(() => import("../features/messages/pages/newsletter-page.tsx")),
  "/admin/message": page(() => import("../features/messages/pages/sent-page.tsx")),
  "/admin/automatisations": page(() => import("../features/messages/pages/automations-page.tsx")),
  "/admin/push": page(() => import("../features/messages/pages/platform-push-page.tsx")),
  "/admin/test-sms": page(() => import("../features/messages/pages/test-sms-page.tsx")),
  // Fidèle beside the till (issue 29).
  "/ticket": page(() => import("../features/cards/pages/ticket-page.tsx")),
  "/admin/caisse": page(() => import("../features/till/pages/till-page.tsx")),
} satisfies Record<ReadyRoute, LazyPage>;

export const pageFor = (path: RoutePath): LazyPage => (PAGES as Partial<Record<RoutePath, LazyPage>>)[path] ?? pending;
