import { Link } from "react-router";

type BackofficeLink = { to: string; title: string; text: string; icon: string };

/** The pages of the shop's back-office, as tiles (the menu of the admin bar lists them too). */
export const BACKOFFICE_LINKS: BackofficeLink[] = [
  {
    to: "/admin/liste-clients",
    title: "Clients",
    text: "Soldes, passages, export CSV",
    icon: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0",
  },
  { to: "/admin/liste-scans", title: "Passages", text: "Historique et alertes", icon: "M4 6h16M4 12h16M4 18h10" },
  {
    to: "/admin/recompenses",
    title: "Récompenses",
    text: "Catalogue, niveaux VIP",
    icon: "M3 8h18v4H3zM5 12v9h14v-9M12 8v13M12 8S10.5 3 8 3a2.5 2.5 0 0 0 0 5M12 8s1.5-5 4-5a2.5 2.5 0 0 1 0 5",
  },
  {
    to: "/admin/validate-reward",
    title: "Valider une récompense",
    text: "Scanner le code d'un client",
    icon: "M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h2v2h-2zM18 14h2M14 18h2v2M18 18h2v2h-2",
  },
  {
    to: "/admin/creativcard",
    title: "Carte et règles",
    text: "Design, tampons ou points, affiche",
    icon: "M3 6h18v12H3zM3 10h18M7 15h4",
  },
  {
    to: "/admin/points-double",
    title: "Points doublés",
    text: "Happy hours et opérations",
    icon: "M13 2 4 14h7l-1 8 9-12h-7z",
  },
  {
    to: "/admin/horaires",
    title: "Horaires",
    text: "Semaine, pauses, fermetures",
    icon: "M12 7v5l3 2M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z",
  },
  {
    to: "/admin/ma-boutique",
    title: "Ma boutique",
    text: "Page publique, logo, photo",
    icon: "M4 9h16l-1-5H5zM4 9v11h16V9M9 20v-6h6v6",
  },
  {
    to: "/admin/edit-societe",
    title: "Société",
    text: "Identité légale",
    icon: "M4 21V5l8-3 8 3v16M9 9h1M14 9h1M9 13h1M14 13h1M10 21v-4h4v4",
  },
  {
    to: "/admin/invitation",
    title: "Équipe",
    text: "Inviter le personnel",
    icon: "M16 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM8 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21a6 6 0 0 1 12 0M14 15a5 5 0 0 1 8 6",
  },
];

export function BackofficeLinks() {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {BACKOFFICE_LINKS.map((link) => (
        <li key={link.to}>
          <Link
            to={link.to}
            className="flex h-full flex-col gap-2 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm transition hover:border-brand-500 dark:border-stone-800 dark:bg-stone-900"
          >
            <span className="flex size-10 items-center justify-center rounded-xl bg-brand-50 text-brand-800 dark:bg-stone-800 dark:text-brand-200">
              <svg
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                strokeLinejoin="round"
                className="size-5"
                aria-hidden="true"
              >
                <path d={link.icon} />
              </svg>
            </span>
            <span className="font-semibold text-stone-900 dark:text-stone-100">{link.title}</span>
            <span className="text-sm leading-snug text-stone-600 dark:text-stone-400">{link.text}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
