import { lazy, Suspense, useState } from "react";
import { Link, useNavigate } from "react-router";
import { Icon } from "../components/icons.tsx";
import type { Me } from "../lib/me.ts";
import { ColourModeButton } from "./shell/colour-mode.tsx";

// Signed-in only, like the live stream (app-layout.tsx): a first visit's download does not carry them.
const UnreadBell = lazy(() => import("../features/messages/components/unread-bell.tsx").then((m) => ({ default: m.UnreadBell })));

/** Top brand header (home). */
export function Header({ me }: { me: Me | null }) {
  return (
    <header className="sticky top-0 z-20 border-b border-stone-200 bg-white/95 backdrop-blur dark:border-stone-800 dark:bg-stone-900/95">
      <div className="mx-auto flex h-14 max-w-md items-center justify-between px-5">
        <Link to="/" className="text-xl font-black tracking-tight text-brand-700 dark:text-brand-200">
          Fidèle
        </Link>
        <div className="flex items-center gap-1">
          <ColourModeButton />
          {me ? (
            // The bell's own size while its code arrives: the header does not move.
            <Suspense fallback={<span className="size-11" aria-hidden="true" />}>
              <UnreadBell />
            </Suspense>
          ) : null}
          {me ? (
            <Link to="/profil" className="text-sm font-medium text-stone-700 dark:text-stone-300">
              {me.profile.firstName ?? me.user.email}
            </Link>
          ) : (
            <Link to="/login" className="min-h-10 rounded-lg px-3 py-2 text-sm font-semibold text-brand-800 dark:text-brand-200">
              Se connecter
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}

/** Page bar: back button and title, a banner landmark (the title sits inside a landmark: issue 25 row 17). */
export function Navbar({ title }: { title: string }) {
  const navigate = useNavigate();
  return (
    <header className="sticky top-0 z-20 border-b border-stone-200 bg-white/95 backdrop-blur dark:border-stone-800 dark:bg-stone-900/95">
      <div className="mx-auto flex h-14 max-w-md items-center gap-2 px-2">
        <button
          type="button"
          onClick={() => (window.history.length > 1 ? navigate(-1) : navigate("/"))}
          className="flex size-11 items-center justify-center rounded-full hover:bg-stone-100 dark:hover:bg-stone-800"
          aria-label="Retour"
        >
          <Icon name="back" />
        </button>
        <p className="truncate text-base font-semibold">{title}</p>
      </div>
    </header>
  );
}

/** Whether the back-office menu (back-office-bars.tsx) is open; kept by the layout so it survives page changes. */
export function useSidebar() {
  const [open, setOpen] = useState(false);
  return { open, openSidebar: () => setOpen(true), closeSidebar: () => setOpen(false) };
}
