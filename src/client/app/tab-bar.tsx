import { Link, useLocation } from "react-router";
import { Icon, type IconName } from "../components/icons.tsx";

type Tab = { to: string; label: string; icon: IconName };

/** SPEC §2: four tabs; the fourth is Profil when signed in, Connexion when not. */
function tabsFor(isSignedIn: boolean): Tab[] {
  return [
    { to: "/", label: "Accueil", icon: "home" },
    { to: "/boutiques", label: "Boutiques", icon: "shop" },
    { to: "/cartes-de-fidelite", label: "Fidélité", icon: "card" },
    isSignedIn ? { to: "/profil", label: "Profil", icon: "user" } : { to: "/login", label: "Connexion", icon: "login" },
  ];
}

export function TabBar({ isSignedIn }: { isSignedIn: boolean }) {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Navigation principale" className="fixed inset-x-0 bottom-0 z-30 border-t border-stone-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur dark:border-stone-800 dark:bg-stone-900/95">
      <ul className="mx-auto grid max-w-md grid-cols-4">
        {tabsFor(isSignedIn).map((tab) => {
          // The active tab is the one whose path equals the current path exactly (SPEC §2).
          const isActive = pathname === tab.to;
          return (
            <li key={tab.to}>
              <Link
                to={tab.to}
                aria-current={isActive ? "page" : undefined}
                className={`flex min-h-16 flex-col items-center justify-center gap-1 text-xs font-medium ${
                  isActive ? "text-brand-700 dark:text-brand-200" : "text-stone-600 dark:text-stone-400"
                }`}
              >
                <Icon name={tab.icon} />
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
