import { createContext, useContext, useLayoutEffect } from "react";
import { useLocation } from "react-router";

export type PageTitle = { path: string; title: string } | null;

/** Given by AppLayout: a page's own title for the bar and the tab, over its route's. */
export const PageTitleContext = createContext<(title: PageTitle) => void>(() => {});

/**
 * A page whose state changes what it is (/login while signed in is « Déjà connecté(e) », not « Connexion ») names
 * itself in the top bar and the tab while it is on screen; its route's title comes back when it goes.
 */
export function usePageTitle(title: string) {
  const setTitle = useContext(PageTitleContext);
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    setTitle({ path: pathname, title });
    return () => setTitle(null);
  }, [setTitle, pathname, title]);
}
