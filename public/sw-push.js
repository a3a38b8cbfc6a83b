/*
 * Web push in Fidèle's service worker, imported by /sw.js (vite.config.ts, workbox.importScripts).
 * A push carries JSON from the server (src/domain/messages/payload.ts): title, body, icon, image, id, url.
 * - The page has focus: it shows the foreground notification itself (SPEC §4), so the worker only tells it.
 * - Otherwise the worker shows the notification; a tap opens the message (/messages/{id}).
 * - pushsubscriptionchange: the browser renewed the subscription; the server is told at once (SPEC §9).
 */
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const title = data.title || "Fidèle";
  const body = data.body || "";
  const url = data.id ? `/messages/${encodeURIComponent(data.id)}?from=push` : data.url || "/notifications";
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const focused = windows.find((client) => client.focused);
      if (focused) {
        focused.postMessage({ type: "push", title, body });
        return;
      }
      await self.registration.showNotification(title, {
        body,
        icon: data.icon || "/pwa-192x192.png",
        badge: "/pwa-192x192.png",
        ...(data.image ? { image: data.image } : {}),
        tag: data.tag || data.id || "fidele",
        data: { url },
      });
    })(),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/notifications", self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const client of windows) {
        if (new URL(client.url).origin === self.location.origin && "navigate" in client) {
          const opened = await client.navigate(target);
          return (opened || client).focus().catch(() => undefined);
        }
      }
      return self.clients.openWindow(target);
    })(),
  );
});

self.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil(
    (async () => {
      const old = event.oldSubscription;
      const key = old?.options ? old.options.applicationServerKey : null;
      const next =
        event.newSubscription ||
        (key
          ? await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })
          : null);
      if (!next || !old) return;
      await fetch("/api/messages/devices/renew", {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ oldEndpoint: old.endpoint, subscription: next.toJSON() }),
      });
    })(),
  );
});
