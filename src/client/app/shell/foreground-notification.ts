/** SPEC §4, §9: a push received while the page has focus is shown as a browser notification, closed after 5 s. */
const FOREGROUND_NOTIFICATION_TAG = "foreground-notification";
const FOREGROUND_NOTIFICATION_ICON = "/pwa-192x192.png";
const FOREGROUND_NOTIFICATION_CLOSE_MS = 5_000;

type ForegroundMessage = { title: string; body: string };

/** What the service worker posts to its pages when a push arrives (the push issue sends it). */
type PushMessage = ForegroundMessage & { type: "push" };

export function isPushMessage(data: unknown): data is PushMessage {
  if (typeof data !== "object" || data === null) return false;
  const { type, title, body } = data as Record<string, unknown>;
  return type === "push" && typeof title === "string" && typeof body === "string";
}

/**
 * Shows the notification when the page has focus and notifications are allowed. A click closes it and brings the
 * window forward; it closes itself after 5 s. Returns the notification, or null when nothing was shown (no focus,
 * no permission, no Notification API).
 *
 * Chrome on Android has no `new Notification()` (it throws "Illegal constructor"): there the notification goes
 * through the service worker registration instead, and is closed after 5 s the same way.
 */
export function showForegroundNotification({ title, body }: ForegroundMessage): Notification | null {
  if (typeof Notification === "undefined" || Notification.permission !== "granted" || !document.hasFocus()) return null;
  const options: NotificationOptions = { body, icon: FOREGROUND_NOTIFICATION_ICON, tag: FOREGROUND_NOTIFICATION_TAG };
  let notification: Notification;
  try {
    notification = new Notification(title, options);
  } catch {
    void showThroughServiceWorker(title, options);
    return null;
  }
  const timer = setTimeout(() => notification.close(), FOREGROUND_NOTIFICATION_CLOSE_MS);
  notification.addEventListener("click", () => {
    clearTimeout(timer);
    notification.close();
    window.focus();
  });
  notification.addEventListener("close", () => clearTimeout(timer));
  return notification;
}

async function showThroughServiceWorker(title: string, options: NotificationOptions) {
  if (!("serviceWorker" in navigator)) return;
  try {
    const registration = await navigator.serviceWorker.ready;
    await registration.showNotification(title, options);
    setTimeout(async () => {
      for (const shown of await registration.getNotifications({ tag: FOREGROUND_NOTIFICATION_TAG })) shown.close();
    }, FOREGROUND_NOTIFICATION_CLOSE_MS);
  } catch (error) {
    console.warn("Notification impossible :", error);
  }
}
