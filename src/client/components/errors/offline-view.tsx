import { useEffect } from "react";
import { Link } from "react-router";

/**
 * What a screen shows when it needs the network and has none: it says so in French and comes back by itself when
 * the network returns (the account query resumes on its own; a route whose loader failed offline is loaded again
 * through `onOnline`).
 */
export function OfflineView({ onOnline }: { onOnline?: () => void }) {
  useEffect(() => {
    if (!onOnline) return;
    window.addEventListener("online", onOnline);
    return () => window.removeEventListener("online", onOnline);
  }, [onOnline]);
  return (
    <div className="mx-auto flex max-w-md flex-col items-center px-6 py-16 text-center">
      <div
        className="flex size-16 items-center justify-center rounded-full bg-brand-50 text-brand-700 dark:bg-stone-800 dark:text-brand-200"
        aria-hidden="true"
      >
        <svg
          viewBox="0 0 24 24"
          aria-hidden="true"
          className="size-8"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M2 8.8a15 15 0 0 1 4.2-2.6M10.7 5.1A15 15 0 0 1 22 8.8M5 12.5a10 10 0 0 1 5.2-2.4M16.2 10.9A10 10 0 0 1 19 12.5M8.5 16a5 5 0 0 1 7 0M12 20h.01M3 3l18 18" />
        </svg>
      </div>
      <h1 className="mt-5 text-2xl font-bold tracking-tight">Vous êtes hors connexion</h1>
      <p className="mt-2 text-stone-600 dark:text-stone-400">
        Cette page a besoin d'Internet. Elle s'affichera d'elle-même dès que la connexion reviendra.
      </p>
      <Link
        to="/"
        className="mt-6 inline-flex min-h-12 items-center rounded-xl px-5 font-semibold text-brand-800 hover:bg-brand-50 dark:text-brand-200 dark:hover:bg-stone-800"
      >
        Retour à l'accueil
      </Link>
    </div>
  );
}
