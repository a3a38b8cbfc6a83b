import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { precompress, routePreloads } from "./scripts/vite-plugins.ts";

/**
 * react-router's package exports point at its development build in every case (remix-run/react-router#12532,
 * #14102), whose dev-only checks (ENABLE_DEV_WARNINGS) run as the routes render. A production build takes the
 * production files the package ships beside them (0.5 kB gzip smaller too).
 */
const reactRouterProduction = fileURLToPath(import.meta.resolve("react-router")).replace(
  "/dist/development/",
  "/dist/production/",
);

export default defineConfig(({ command }) => ({
  resolve: { alias: command === "build" ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [] },
  build: {
    outDir: "dist/client",
    emptyOutDir: true,
    sourcemap: false,
    target: "es2022",
    rollupOptions: {
      output: {
        codeSplitting: {
          // React, the router, TanStack Query and the API client in one chunk: every screen needs them, and left to
          // itself the bundler cut them into five files (a first visit asks for each; HTTP/1.1 serves six at a
          // time). One file also compresses better (-2 kB gzip), and stays cached across app releases.
          // Not TanStack's mutations and infinite lists: only pages that change something or scroll use them, and
          // they come with those pages (the first visit's budget, bench/bundle.ts).
          groups: [
            {
              name: "framework",
              test: /node_modules[\\/](?:(?:react|react-dom|scheduler|react-router|hono)[\\/]|@tanstack[\\/](?![\w-]+[\\/]build[\\/]modern[\\/](?:mutationObserver|useMutation|infiniteQueryObserver|useInfiniteQuery)\.js))/,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { "/api": "http://localhost:3000" } },
  plugins: [
    react(),
    tailwindcss(),
    routePreloads(),
    precompress(),
    VitePWA({
      // We register the worker ourselves (src/client/app/shell/service-worker.ts, loaded lazily) so that a new worker
      // waits and the update banner asks before reloading into it ("prompt": no skipWaiting in the worker; it obeys
      // a {type: "SKIP_WAITING"} message instead).
      injectRegister: null,
      registerType: "prompt",
      filename: "sw.js",
      manifestFilename: "manifest.webmanifest",
      // The precache list comes from workbox.globPatterns alone (adding the manifest icons again lists them twice).
      includeManifestIcons: false,
      manifest: {
        id: "/",
        name: "Fidèle — cartes de fidélité",
        short_name: "Fidèle",
        description: "Vos cartes de fidélité et récompenses chez les commerçants de votre quartier.",
        lang: "fr",
        start_url: "/",
        scope: "/",
        display: "standalone",
        orientation: "portrait",
        background_color: "#fafaf9",
        theme_color: "#0f766e",
        icons: [
          { src: "/pwa-192x192.png", sizes: "192x192", type: "image/png" },
          { src: "/pwa-512x512.png", sizes: "512x512", type: "image/png" },
          { src: "/pwa-512x512-maskable.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
      },
      workbox: {
        // The app shell: every navigation is answered by the precached index.html, so the app opens offline
        // after one visit...
        navigateFallback: "/index.html",
        // ...except the server's own pages (e-mail links such as /api/auth/verify-email), which need the network.
        navigateFallbackDenylist: [/^\/api\//],
        // Everything the app shows offline, public/ included (so no includeAssets: it would list them twice). The
        // manifest is added by the plugin itself; the 512 px icons are for the system's installer, not the pages.
        globPatterns: ["**/*.{js,css,html,svg,png,wasm}"],
        globIgnores: ["pwa-512x512*.png"],
        cleanupOutdatedCaches: true,
        importScripts: ["/sw-push.js"], // web push: notifications, taps, renewals (public/sw-push.js)
        // The first visit's page is controlled as soon as the worker activates (STACK "Known traps"); updates
        // still wait for the banner because skipWaiting stays off.
        clientsClaim: true,
        skipWaiting: false,
        runtimeCaching: [
          {
            // A navigation the shell does not answer (see the deny list) goes to the network; when that fails,
            // the precached offline page is shown instead of the browser's error.
            urlPattern: ({ request }) => request.mode === "navigate",
            handler: "NetworkOnly",
            options: { precacheFallback: { fallbackURL: "/offline.html" } },
          },
        ],
      },
    }),
  ],
}));
