import { createBrowserRouter, data } from "react-router";
import { ROUTES } from "../../domain/routes.ts";
import { RouteError } from "../components/errors/route-error.tsx";
import { AppLayout } from "./app-layout.tsx";
import { pageFor } from "./pages.ts";

const HydrateFallback = () => null;

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
          lazy: pageFor(meta.path),
          errorElement: <RouteError />,
          HydrateFallback,
        })),
        {
          path: "*",
          handle: { path: "*", guard: "public", title: "Page Not Found" },
          loader: ({ request }: { request: Request }) => {
            throw data(`Page not found: ${new URL(request.url).pathname}`, { status: 404 });
          },
          errorElement: <RouteError />,
        },
      ],
    },
  ]);
}
