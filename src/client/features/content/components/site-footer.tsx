import { Link } from "react-router";

const LINKS = [
  { to: "/faq", label: "Questions fréquentes" },
  { to: "/offre", label: "Offre commerçants" },
  { to: "/presentation/fidele-en-cinq-minutes", label: "Fidèle en 5 minutes" },
  { to: "/cgu", label: "Conditions d'utilisation" },
  { to: "/politiques-de-confidentialite", label: "Confidentialité" },
  { to: "/mentions-legales", label: "Mentions légales" },
];

/** Links to the public content pages, at the bottom of the home and content pages. */
export function SiteFooter() {
  return (
    <footer className="mx-auto mt-4 w-full max-w-md border-t border-stone-200 px-5 pb-8 pt-6 dark:border-stone-800">
      <nav aria-label="Informations">
        <ul className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
          {LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="inline-flex min-h-11 items-center text-stone-700 underline-offset-2 hover:underline dark:text-stone-300">
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="mt-4 text-xs text-stone-600 dark:text-stone-400">Fidèle — la fidélité des commerces de quartier, dans votre poche.</p>
    </footer>
  );
}
