/**
 * Every route of SPEC §2 with its layout metadata and guard. The web app's router
 * (src/client/app/router.tsx) gives each one its page; the server uses the same
 * patterns to answer 404 for a path that matches none. Nothing else decides
 * layout or access.
 */
export type Guard = "public" | "auth" | "owner" | "staff" | "admin";
type Transition = "none" | "fade" | "slide";

export type RouteMeta = {
  path: string;
  guard: Guard;
  /** Page title (French), used for document.title. */
  title: string;
  showHeader?: boolean;
  showNavbar?: boolean;
  showAdminbar?: boolean;
  showFooter?: boolean;
  showSidebar?: boolean;
  transition?: Transition;
  keepAlive?: boolean;
  colorMode?: "light" | "dark";
  /**
   * Public API reads (GET paths) the page shows on arrival: the server asks for them in the page's HTML
   * (`<link rel="preload" as="fetch">`, src/server/lib/spa-index.ts) so they come with the app's code, and the
   * page's route loader waits for them briefly, so the first screen appears whole.
   */
  preloadApi?: string[];
};

/** Layout defaults: SPEC §2 "most pages hide the header and often the navbar". */
export const LAYOUT_DEFAULTS = {
  showHeader: false,
  showNavbar: true,
  showAdminbar: false,
  showFooter: true,
  showSidebar: false,
  transition: "fade" as Transition,
  keepAlive: false,
};

/** A route of the table, its path kept as a literal type so that the compiler knows every route by name. */
type Route<P extends string> = RouteMeta & { path: P };

const shopper = <P extends string>(
  path: P,
  title: string,
  guard: Guard = "public",
  extra: Partial<Omit<RouteMeta, "path">> = {},
): Route<P> => ({
  path,
  title,
  guard,
  ...extra,
});
/** Back-office pages: admin bar and sidebar, no tab bar. */
const backOffice = <P extends string>(
  path: P,
  title: string,
  guard: Guard = "owner",
  extra: Partial<Omit<RouteMeta, "path">> = {},
): Route<P> => ({
  path,
  title,
  guard,
  showAdminbar: true,
  showSidebar: true,
  showFooter: false,
  showNavbar: false,
  ...extra,
});
/** Account pages: focused forms, no tab bar. */
const accountForm = <P extends string>(path: P, title: string, guard: Guard = "public"): Route<P> => ({
  path,
  title,
  guard,
  showFooter: false,
});

export const ROUTES = [
  shopper("/", "Accueil", "public", {
    showHeader: true,
    showNavbar: false,
    keepAlive: true,
    preloadApi: ["/api/content/blog"],
  }),
  accountForm("/login", "Connexion"),
  accountForm("/signup", "Créer un compte"),
  accountForm("/mot-de-passe-perdu", "Mot de passe oublié"),
  accountForm("/reset-password", "Nouveau mot de passe"),
  accountForm("/change-password", "Changer de mot de passe", "auth"),
  accountForm("/changer-mot-de-passe", "Changer de mot de passe", "auth"),
  accountForm("/confirm", "Confirmation"),
  accountForm("/create-profil", "Votre profil", "auth"),
  shopper("/edit-profil", "Modifier mon profil", "auth"),
  shopper("/faq", "Questions fréquentes"),
  shopper("/cgu", "Conditions générales d'utilisation"),
  shopper("/mentions-legales", "Mentions légales"),
  shopper("/politiques-de-confidentialite", "Politique de confidentialité"),
  shopper("/offre", "L'offre commerçants"),
  shopper("/merci", "Merci !"),
  shopper("/vip", "Niveaux VIP", "auth"),
  shopper("/dashboard", "Mon activité", "auth"),
  shopper("/notif", "Réglages des notifications", "auth"),
  shopper("/protected", "Sécurité du compte", "auth"),
  shopper("/validate-reward", "Valider une récompense", "staff", { showFooter: false }),
  shopper("/boutique-a-proximite", "Boutiques à proximité"),
  shopper("/boutiques", "Boutiques", "public", { keepAlive: true }),
  shopper("/shop", "Boutique"),
  shopper("/cartes-de-fidelite", "Mes cartes", "auth", { keepAlive: true }),
  shopper("/inscription-boutique", "Inscrire ma boutique", "auth", { showFooter: false }),
  shopper("/result-boutique", "Boutique créée", "auth", { showFooter: false }),
  shopper("/manager", "Comptoir", "staff", { showFooter: false, showAdminbar: true, showSidebar: true }),
  shopper("/reader", "Code du comptoir", "staff", { showFooter: false, showNavbar: false, colorMode: "light" }),
  // Issue 29 item 6 (ADR 0054), beyond SPEC §2: a shop's counter tablet, known by its own credential, not a session.
  shopper("/tablette", "Tablette de comptoir", "public", {
    showFooter: false,
    showNavbar: false,
    colorMode: "light",
    transition: "none",
  }),
  shopper("/scanner", "Scanner", "public", { showFooter: false, colorMode: "dark" }),
  accountForm("/scanner-auth", "Connexion pour scanner"),
  accountForm("/accept-invitation/:token", "Invitation"),
  shopper("/blog/:slug", "Blog"),
  shopper("/boutique/:scanUid", "Passage en boutique", "public", { showFooter: false }),
  shopper("/ticket", "Points de votre ticket", "public", { showFooter: false }),
  shopper("/messages/:id", "Message", "auth"),
  shopper("/presentation/:slug", "Présentation"),
  shopper("/profile/:id", "Profil", "auth"),
  shopper("/reward/:rewardSlug", "Récompense"),
  shopper("/shop/:slug", "Boutique"),
  shopper("/validation-recompense/:id", "Récompense à valider", "auth", { showFooter: false, transition: "slide" }),
  shopper("/jeu-concours", "Jeu concours"),
  shopper("/jeu-concours-roulette", "La roue de la chance"),
  shopper("/jeu-concours-cajvb", "Jeu concours", "auth"),
  shopper("/jeu-concours-1-an-giagia", "Jeu concours anniversaire"),
  shopper("/jeux-concours-mabbam-giagia", "Jeu concours"),
  accountForm("/jeux-concours-auth", "Connexion au jeu concours"),
  shopper("/notifications", "Notifications", "auth"),
  shopper("/profil", "Profil", "auth"),
  shopper("/review", "Donner mon avis", "auth"),
  // Issue 28: a gift card or an imported balance claimed with its code (the e-mail's link), beyond SPEC §2.
  shopper("/recuperer", "Récupérer un code", "auth"),
  // Issue 28 (ADR 0048), beyond SPEC §2: parrainage, the sponsor's link and the friend's invitation.
  shopper("/parrainer", "Parrainer un proche", "auth"),
  shopper("/parrainage/:code", "Invitation de parrainage"),
  backOffice("/admin", "Tableau de bord"),
  backOffice("/admin/ajouter-un-reward", "Ajouter une récompense"),
  backOffice("/admin/automatisations", "Automatisations"),
  // Issue 28 (ADR 0048): who brought whom, and review requests.
  backOffice("/admin/avis", "Avis clients"),
  backOffice("/admin/caisse", "Caisse et API"),
  backOffice("/admin/connected", "Connectés"),
  backOffice("/admin/creativcard", "Design de la carte"),
  backOffice("/admin/edit-societe", "Société"),
  backOffice("/admin/envoyer-un-message", "Envoyer un message"),
  backOffice("/admin/gestion-des-lots", "Gestion des lots"),
  backOffice("/admin/gestion-des-lots-2", "Gestion des lots"),
  backOffice("/admin/horaires", "Horaires"),
  // Issue 28: prepaid bundles and gift cards, and the import of a shop's former customers, beyond SPEC §2.
  backOffice("/admin/import-clients", "Importer des clients"),
  backOffice("/admin/invitation", "Invitations"),
  backOffice("/admin/jeux-concours", "Jeux concours"),
  backOffice("/admin/liste-clients", "Clients"),
  backOffice("/admin/liste-scans", "Passages"),
  backOffice("/admin/liste-totale-clients", "Tous les clients"),
  backOffice("/admin/logs", "Journaux", "admin"),
  backOffice("/admin/ma-boutique", "Ma boutique"),
  backOffice("/admin/message", "Messages"),
  // Every member's own profile, staff included (issue 25 row 4).
  backOffice("/admin/monprofil", "Mon profil", "staff"),
  backOffice("/admin/newsletter", "Newsletter"),
  backOffice("/admin/parrainage", "Parrainage"),
  backOffice("/admin/points-double", "Points doublés"),
  backOffice("/admin/prepaye", "Carnets et cartes cadeaux"),
  backOffice("/admin/push", "Notifications push", "admin"),
  backOffice("/admin/recompenses", "Récompenses"),
  backOffice("/admin/scans", "Scans"),
  backOffice("/admin/sessions", "Sessions"),
  backOffice("/admin/test-sms", "Test SMS"),
  backOffice("/admin/validate-reward", "Valider une récompense"),
  // Last among /admin/*: a static segment above wins over the parameter.
  backOffice("/admin/:product", "Back-office"),
];

/** Every route of SPEC §2 by name (its path pattern): "/admin/horaires", "/shop/:slug"… */
export type RoutePath = (typeof ROUTES)[number]["path"];

/**
 * The routes whose page arrives in a later issue, by name. Every other route has a page in
 * src/client/app/pages.ts, a `Record<ReadyRoute, …>`: a route with neither a page nor a place here is a type
 * error (and `npm run lint` says which), a page for a route listed here too. These routes show the one shared
 * "En préparation" page and never appear in a menu (a menu entry is a `ReadyRoute`).
 */
export const PENDING_ROUTES = [] as const satisfies readonly RoutePath[];

type PendingRoute = (typeof PENDING_ROUTES)[number];
/** A route with a page of its own. */
export type ReadyRoute = Exclude<RoutePath, PendingRoute>;

/** Converts "/shop/:slug" into a RegExp matching one non-empty segment per parameter. */
function toRegExp(pattern: string): RegExp {
  const source = pattern
    .split("/")
    .map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}/?$`);
}

const COMPILED = ROUTES.map((route) => ({ route, re: toRegExp(route.path) }));

/** The route a path belongs to, or undefined (a 404). Query strings are ignored. */
export function matchRoute(pathname: string): RouteMeta | undefined {
  const path = pathname.split("?")[0] ?? "/";
  return COMPILED.find(({ re }) => re.test(path === "" ? "/" : path))?.route;
}

/** SPEC §6 + shop staff: which roles may enter a guard. */
export type Viewer = { isSignedIn: boolean; isAdmin: boolean; isOwner: boolean; isStaff: boolean };

type Access = "allow" | "login" | "forbidden";

/**
 * Where a sign-in lands when no page asked for it (issue 25 row 16): an owner (or a shop's manager) on their back
 * office, everyone else on the home.
 */
export function homeAfterSignIn(viewer: Viewer): string {
  return viewer.isOwner ? "/admin" : "/";
}

export function checkAccess(guard: Guard, viewer: Viewer): Access {
  if (guard === "public") return "allow";
  if (!viewer.isSignedIn) return "login";
  switch (guard) {
    case "auth":
      return "allow";
    case "owner":
      return viewer.isOwner || viewer.isAdmin ? "allow" : "forbidden";
    case "staff":
      return viewer.isStaff || viewer.isOwner || viewer.isAdmin ? "allow" : "forbidden";
    case "admin":
      return viewer.isAdmin ? "allow" : "forbidden";
  }
}
