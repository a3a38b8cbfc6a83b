import type { ReadyRoute } from "../../../domain/routes.ts";

/*
 * The back-office menu. A shop's part as its owner thinks of the day: what happens today at the counter, the loyalty
 * programme, the customers, talking to them, games, the shop itself, the team; the platform's part for its admin.
 * One entry per page (or per view of the console), and only pages that exist: an entry's route is a `ReadyRoute`
 * (a route named pending in src/domain/routes.ts is a type error here). The admin bar's drawer and the dashboard's
 * tiles both read it.
 */

/**
 * Who sees an entry (issue 25 rows 4 and 5): the owner (and the shop's managers) all of the shop, staff only what
 * staff may open (the counter's tools and their profile), the platform admin the console.
 */
export type MenuRole = "owner" | "staff" | "platform";

/** The console's views (/admin?vue=…): its page shows one at a time, as tabs. */
export const CONSOLE_VIEWS = ["boutiques", "comptes", "envois"] as const;
export type ConsoleView = (typeof CONSOLE_VIEWS)[number];

type MenuEntry = {
  to: ReadyRoute;
  /** A view of the page, for a page that has several (the console). */
  view?: ConsoleView;
  /** Its short name when its group's pages show as tabs in the frame (the console, the messages, the games). */
  tab?: string;
  /** Where staff go for the same page, when owners have a back-office address of their own for it. */
  staffTo?: ReadyRoute;
  label: string;
  /** One line under the label on the dashboard's tiles. */
  text: string;
  /** An SVG path on a 24 px grid (stroke). */
  icon: string;
  roles: readonly MenuRole[];
};

type MenuGroup = { title: string; entries: readonly MenuEntry[] };

const EVERYONE = ["owner", "staff"] as const;
const OWNER = ["owner"] as const;
const PLATFORM = ["platform"] as const;

export const BACK_OFFICE_MENU: readonly MenuGroup[] = [
  {
    title: "Plateforme",
    entries: [
      {
        to: "/admin",
        label: "Console",
        tab: "Vue d'ensemble",
        text: "Activité et santé de la plateforme",
        icon: "M4 19V10M10 19V5M16 19v-7M22 19H2",
        roles: PLATFORM,
      },
      {
        to: "/admin",
        view: "boutiques",
        label: "Boutiques",
        tab: "Boutiques",
        text: "Suspendre, réactiver, budgets SMS, fidélisation",
        icon: "M4 9h16l-1-5H5zM4 9v11h16V9M9 20v-6h6v6",
        roles: PLATFORM,
      },
      {
        to: "/admin",
        view: "comptes",
        label: "Comptes",
        tab: "Comptes",
        text: "Rechercher, bannir, déconnecter",
        icon: "M9 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21a7 7 0 0 1 14 0M16 4a4 4 0 0 1 0 8M18 14a6 6 0 0 1 4 7",
        roles: PLATFORM,
      },
      {
        to: "/admin/logs",
        label: "Journal",
        text: "Actions sensibles, filtres, export CSV",
        icon: "M6 3h9l4 4v14H6zM14 3v5h5M9 12h7M9 16h7",
        roles: PLATFORM,
      },
      {
        to: "/admin/connected",
        label: "Connectés",
        text: "Qui utilise l'application en ce moment",
        icon: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0M19 4l2 2-2 2",
        roles: PLATFORM,
      },
      {
        to: "/admin/sessions",
        label: "Sessions",
        text: "Appareils connectés, déconnexion à distance",
        icon: "M4 5h16v11H4zM2 19h20M9 9l6 4M15 9l-6 4",
        roles: PLATFORM,
      },
      {
        to: "/admin/push",
        label: "Annonces",
        text: "Une notification à tous les utilisateurs",
        icon: "M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10 21h4",
        roles: PLATFORM,
      },
      {
        to: "/admin",
        view: "envois",
        label: "Boîtes d'envoi",
        tab: "Boîtes d'envoi",
        text: "Courriels et SMS, gardés ou envoyés",
        icon: "M3 7l9 6 9-6M3 7v10h18V7M3 7h18",
        roles: PLATFORM,
      },
    ],
  },
  {
    title: "Aujourd'hui",
    entries: [
      {
        to: "/admin",
        label: "Tableau de bord",
        text: "Passages, clients et récompenses",
        icon: "M3 10.5 12 3l9 7.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z",
        roles: OWNER,
      },
      {
        to: "/manager",
        label: "Comptoir",
        text: "Créditer ou corriger un passage",
        icon: "M3 21h18M5 21V10l7-6 7 6v11M9 21v-6h6v6",
        roles: EVERYONE,
      },
      {
        to: "/admin/validate-reward",
        staffTo: "/validate-reward",
        label: "Valider une récompense",
        text: "Scanner le code d'un client",
        icon: "M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h2v2h-2zM18 14h2M14 18h2v2M18 18h2v2h-2",
        roles: EVERYONE,
      },
      {
        to: "/reader",
        label: "Code du comptoir",
        text: "Le QR code que vos clients scannent",
        icon: "M7 3H3v4M17 3h4v4M7 21H3v-4M17 21h4v-4M7 12h10",
        roles: EVERYONE,
      },
    ],
  },
  {
    title: "Fidélité",
    entries: [
      {
        to: "/admin/creativcard",
        label: "Carte et règles",
        text: "Design, tampons ou points, affiche",
        icon: "M3 6h18v12H3zM3 10h18M7 15h4",
        roles: OWNER,
      },
      {
        to: "/admin/recompenses",
        label: "Récompenses",
        text: "Catalogue, niveaux VIP",
        icon: "M3 8h18v4H3zM5 12v9h14v-9M12 8v13M12 8S10.5 3 8 3a2.5 2.5 0 0 0 0 5M12 8s1.5-5 4-5a2.5 2.5 0 0 1 0 5",
        roles: OWNER,
      },
      {
        to: "/admin/points-double",
        label: "Points doublés",
        text: "Happy hours et opérations",
        icon: "M13 2 4 14h7l-1 8 9-12h-7z",
        roles: OWNER,
      },
      {
        to: "/admin/prepaye",
        label: "Carnets et cartes cadeaux",
        text: "Produits prépayés, ce qui reste dû, export",
        icon: "M3 7h18v10H3zM3 11h18M8 7v10",
        roles: OWNER,
      },
    ],
  },
  {
    title: "Clients",
    entries: [
      {
        to: "/admin/liste-clients",
        label: "Clients",
        text: "Soldes, passages, export CSV",
        icon: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0",
        roles: OWNER,
      },
      {
        to: "/admin/liste-totale-clients",
        label: "Tous les clients",
        text: "Toutes vos boutiques, une liste",
        icon: "M9 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21a7 7 0 0 1 14 0M16 4a4 4 0 0 1 0 8M18 14a6 6 0 0 1 4 7",
        roles: OWNER,
      },
      {
        to: "/admin/liste-scans",
        label: "Passages",
        text: "Historique, alertes et corrections",
        icon: "M4 6h16M4 12h16M4 18h10",
        roles: OWNER,
      },
      {
        to: "/admin/import-clients",
        label: "Importer des clients",
        text: "Soldes d'anciennes cartes, par CSV",
        icon: "M12 3v12M7 10l5 5 5-5M4 20h16",
        roles: OWNER,
      },
    ],
  },
  {
    title: "Communication",
    entries: [
      {
        to: "/admin/envoyer-un-message",
        label: "Envoyer un message",
        tab: "Message",
        text: "À vos clients, dans l'app et en notification",
        icon: "M4 4h16v12H7l-3 3zM8 9h8M8 12h5",
        roles: OWNER,
      },
      {
        to: "/admin/newsletter",
        label: "Newsletter",
        tab: "Newsletter",
        text: "Un e-mail à vos clients qui l'acceptent",
        icon: "M3 7l9 6 9-6M3 7v10h18V7M3 7h18",
        roles: OWNER,
      },
      {
        to: "/admin/automatisations",
        label: "Automatisations",
        text: "Bienvenue, vous nous manquez, anniversaire",
        icon: "M12 3v3M12 18v3M3 12h3M18 12h3M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zM5.6 5.6l2.1 2.1M16.3 16.3l2.1 2.1M5.6 18.4l2.1-2.1M16.3 7.7l2.1-2.1",
        roles: OWNER,
      },
      {
        to: "/admin/parrainage",
        label: "Parrainage",
        text: "Qui a fait venir qui, récompenses après la première visite",
        icon: "M8 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM16 13a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM2 20a6 6 0 0 1 12 0M12 20a6 6 0 0 1 10 0",
        roles: OWNER,
      },
      {
        to: "/admin/avis",
        label: "Avis clients",
        text: "Demandes d'avis envoyées, avis reçus",
        icon: "M12 3.2l2.6 5.5 6 .8-4.4 4.2 1.1 6L12 16.8l-5.3 2.9 1.1-6-4.4-4.2 6-.8z",
        roles: OWNER,
      },
      {
        to: "/admin/message",
        label: "Messages envoyés",
        tab: "Envoyés",
        text: "Reçus, lus, programmés",
        icon: "M4 6h16v12H4zM4 7l8 6 8-6",
        roles: OWNER,
      },
      {
        to: "/admin/test-sms",
        label: "SMS",
        tab: "SMS",
        text: "Test, budget du mois",
        icon: "M7 2h10a1 1 0 0 1 1 1v18a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1V3a1 1 0 0 1 1-1zM10 18h4",
        roles: OWNER,
      },
    ],
  },
  {
    title: "Jeux",
    entries: [
      {
        to: "/admin/jeux-concours",
        label: "Jeux-concours",
        tab: "Jeux concours",
        text: "Tirages au sort et roue",
        icon: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 3v9l6.4 6.4M12 12 3.5 9",
        roles: OWNER,
      },
      {
        to: "/admin/gestion-des-lots",
        label: "Lots",
        tab: "Stock de lots",
        text: "Le stock de vos lots",
        icon: "M3 8h18v4H3zM5 12v9h14v-9M12 8v13",
        roles: OWNER,
      },
      {
        to: "/admin/gestion-des-lots-2",
        label: "Lots gagnés",
        tab: "Lots gagnés",
        text: "Gagnants, remises, export",
        icon: "M8 21h8M12 17v4M7 4h10v5a5 5 0 0 1-10 0zM17 6h3v2a3 3 0 0 1-3 3M7 6H4v2a3 3 0 0 0 3 3",
        roles: OWNER,
      },
    ],
  },
  {
    title: "Ma boutique",
    entries: [
      {
        to: "/admin/ma-boutique",
        label: "Page de la boutique",
        text: "Présentation, logo, photo",
        icon: "M4 9h16l-1-5H5zM4 9v11h16V9M9 20v-6h6v6",
        roles: OWNER,
      },
      {
        to: "/admin/horaires",
        label: "Horaires",
        text: "Semaine, pauses, fermetures",
        icon: "M12 7v5l3 2M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z",
        roles: OWNER,
      },
      {
        to: "/admin/edit-societe",
        label: "Société",
        text: "Identité légale",
        icon: "M4 21V5l8-3 8 3v16M9 9h1M14 9h1M9 13h1M14 13h1M10 21v-4h4v4",
        roles: OWNER,
      },
      {
        to: "/admin/caisse",
        label: "Caisse et API",
        text: "Clés d'API, webhooks, codes sur les tickets",
        icon: "M4 4h16v10H4zM8 18h8M12 14v4M7 8h4",
        roles: OWNER,
      },
    ],
  },
  {
    title: "Équipe",
    entries: [
      {
        to: "/admin/invitation",
        label: "Équipe",
        text: "Inviter le personnel",
        icon: "M16 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM8 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21a6 6 0 0 1 12 0M14 15a5 5 0 0 1 8 6",
        roles: OWNER,
      },
      {
        to: "/admin/connected",
        label: "Connectés",
        text: "Qui utilise l'application en ce moment",
        icon: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0M19 4l2 2-2 2",
        roles: OWNER,
      },
      {
        to: "/admin/sessions",
        label: "Sessions",
        text: "Appareils connectés, déconnexion à distance",
        icon: "M4 5h16v11H4zM2 19h20M9 9l6 4M15 9l-6 4",
        roles: OWNER,
      },
    ],
  },
  {
    title: "Mon compte",
    entries: [
      {
        to: "/admin/monprofil",
        label: "Mon profil",
        text: "Mes rôles, double authentification",
        icon: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0",
        roles: ["owner", "staff", "platform"],
      },
    ],
  },
];

/** An entry as a link: its address (a route, or a view of one). */
type MenuLink = Omit<MenuEntry, "to" | "staffTo" | "roles" | "view" | "tab"> & { to: string };

/** The pages of a menu group that go together, as the frame's tabs (`label`: the tabs' name for screen readers). */
export function tabsOf(group: string, label = group): { label: string; items: { to: string; label: string }[] } {
  const entries = BACK_OFFICE_MENU.find((g) => g.title === group)?.entries ?? [];
  return {
    label,
    items: entries.flatMap((entry) => (entry.tab ? [{ to: hrefOf(entry), label: entry.tab }] : [])),
  };
}

/** Where an entry leads: its route, at the view it names. */
const hrefOf = (entry: Pick<MenuEntry, "to" | "view">) => (entry.view ? `${entry.to}?vue=${entry.view}` : entry.to);

/**
 * The menu of someone holding these roles (the platform admin may also run a shop): the entries of any of them, each
 * page once (the first group that has it: the platform's before the shop's), at the role's own address, groups left
 * empty dropped.
 */
export function menuFor(roles: readonly MenuRole[]): { title: string; links: MenuLink[] }[] {
  const seen = new Set<string>();
  const isOnce = (link: MenuLink) => {
    if (seen.has(link.to)) return false;
    seen.add(link.to);
    return true;
  };
  return BACK_OFFICE_MENU.map((group) => ({
    title: group.title,
    links: group.entries
      .filter((entry) => entry.roles.some((role) => roles.includes(role)))
      .map(({ to, staffTo, roles: entryRoles, view, tab: _tab, ...link }) => ({
        ...link,
        // Staff go to their own address for a page owners have in the back office; someone who is also an owner
        // keeps the owner's.
        to:
          staffTo && !roles.some((role) => role !== "staff" && entryRoles.includes(role))
            ? staffTo
            : hrefOf({ to, view }),
      }))
      .filter(isOnce),
  })).filter((group) => group.links.length > 0);
}
