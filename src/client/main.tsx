// First: zod must know it may not use eval before any schema is built (see zod-config.ts).
import "./lib/zod-config.ts";
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { createRouter } from "./app/router.tsx";
import { Shell, startShell } from "./app/shell/shell.tsx";
import { meQueryOptions } from "./lib/me.ts";
import { startOfflineCache } from "./lib/offline-cache.ts";
import { queryClient } from "./lib/query-client.ts";
import "./styles.css";

// Opened without network: the screens seen last come back from the phone's copy (offline-cache.ts).
startOfflineCache(queryClient);
// Who is signed in is needed by every screen: ask at once, alongside the route's code.
void queryClient.prefetchQuery(meQueryOptions());
const router = createRouter();
startShell();

createRoot(document.getElementById("root") as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Shell router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
