import { api, unwrap } from "../../../lib/api-client.ts";

/**
 * This device's push subscription: asked of the browser only after a tap that says
 * why (/notif), kept by the server (one per device), and checked again every 7 days
 * (SPEC §9) so it never silently dies.
 */
const DEVICE_KEY = "fidele.push-device";
const CHECKED_KEY = "fidele.push-checked-at";
const RECHECK_MS = 7 * 24 * 60 * 60 * 1000;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The app's own id for this device (the subscription's endpoint changes; this does not). */
export function deviceId(): string {
  const store = storage();
  let id = store?.getItem(DEVICE_KEY) ?? null;
  if (!id) {
    id = `d-${crypto.randomUUID()}`;
    store?.setItem(DEVICE_KEY, id);
  }
  return id;
}

type PushSupport = "supported" | "ios-not-installed" | "unsupported";

const isIos = () =>
  /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
const isStandalone = () =>
  window.matchMedia("(display-mode: standalone)").matches ||
  (navigator as Navigator & { standalone?: boolean }).standalone === true;

/** On an iPhone, web push works only for a web app added to the home screen (iOS 16.4+). */
export function pushSupport(): PushSupport {
  if (isIos() && !isStandalone()) return "ios-not-installed";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || typeof Notification === "undefined")
    return "unsupported";
  return "supported";
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64url + "=".repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function toBody(subscription: PushSubscription) {
  const json = subscription.toJSON();
  return {
    deviceId: deviceId(),
    subscription: {
      endpoint: json.endpoint ?? "",
      keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" },
    },
  };
}

async function registration(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration("/");
  if (existing) return existing;
  return navigator.serviceWorker.register("/sw.js", { scope: "/" });
}

type EnableResult = "enabled" | "denied";

/** After the tap: asks the permission, subscribes, and tells the server (which sends the welcome push). */
export async function enablePush(vapidPublicKey: string): Promise<EnableResult> {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return "denied";
  const reg = await registration();
  await navigator.serviceWorker.ready;
  const subscription =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(vapidPublicKey) }));
  await unwrap(api.messages.devices.$post({ json: toBody(subscription) }));
  storage()?.setItem(CHECKED_KEY, String(Date.now()));
  return "enabled";
}

export async function disablePush(): Promise<void> {
  const reg = await navigator.serviceWorker.getRegistration("/");
  const subscription = await reg?.pushManager.getSubscription();
  await subscription?.unsubscribe().catch(() => false);
  await unwrap(api.messages.devices[":deviceId"].$delete({ param: { deviceId: deviceId() } }));
}

/** The weekly check: the browser's current subscription (renewed if it lapsed) is sent again. */
export async function recheckPush(vapidPublicKey: string, force = false): Promise<void> {
  if (pushSupport() !== "supported" || Notification.permission !== "granted") return;
  const last = Number(storage()?.getItem(CHECKED_KEY) ?? 0);
  if (!force && Date.now() - last < RECHECK_MS) return;
  const reg = await navigator.serviceWorker.getRegistration("/");
  if (!reg) return;
  const subscription =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(vapidPublicKey) }));
  await unwrap(api.messages.devices.$put({ json: toBody(subscription) }));
  storage()?.setItem(CHECKED_KEY, String(Date.now()));
}
