import { createBrowserRouter, data } from "react-router";
import { ROUTES } from "../../domain/routes.ts";
import { RouteError } from "../components/errors/route-error.tsx";
import { AppLayout, loadBackOfficeBars } from "./app-layout.tsx";
import { type LazyPage, pageFor } from "./pages.ts";

const HydrateFallback = () => null;

/** A page under the admin bar arrives with the bar's code, so the bar does not appear a moment after the page. */
const withBackOfficeBars =
  (load: LazyPage): LazyPage =>
  async () =>
    (await Promise.all([load(), loadBackOfficeBars()]))[0];

/**
 * The route table: every route of SPEC §2 (src/domain/routes.ts holds each one's
 * layout metadata and guard, shared with the server's 404), its lazy page, and
 * the one error element.
 */
export function createRouter() {
  return createBrowserRouter([
    {
      element: <AppLayout />,
      errorElement: <RouteError />,
      HydrateFallback,
      children: [
        ...ROUTES.map((meta) => ({
          path: meta.path,
          handle: meta,
          lazy: meta.showAdminbar ? withBackOfficeBars(pageFor(meta.path)) : pageFor(meta.path),
          errorElement: <RouteError />,
          // No HydrateFallback here: the root's (nothing) stays until the page's code is in, so the first screen
          // appears whole, rather than the bars first and the page a moment later.
        })),
        {
          path: "*",
          handle: { path: "*", guard: "public", title: "Page introuvable" },
          loader: ({ request }: { request: Request }) => {
            throw data(`Page not found: ${new URL(request.url).pathname}`, { status: 404 });
          },
          errorElement: <RouteError />,
        },
      ],
    },
  ]);
}
