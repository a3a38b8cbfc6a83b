/**
 * What a push carries. Push services accept ~4 kB of encrypted payload; we keep ours
 * under 3 kB (the title, the text, the message id, an image and a link), and the page
 * fetches the rest when opened (/messages/{id}).
 */
export const PUSH_PAYLOAD_MAX_BYTES = 3000;
const PUSH_ICON = "/pwa-192x192.png";

type PushPayload = {
  /** The message id; absent for the welcome notification. */
  id?: string;
  title: string;
  body: string;
  icon: string;
  image?: string;
  /** Where a tap leads (an app path). */
  url: string;
  tag?: string;
};

const bytes = (s: string) => new TextEncoder().encode(s).length;

/** The JSON a push carries, the text shortened (with "…") until the whole fits. Data URLs are never sent. */
export function buildPushPayload(input: {
  id?: string;
  title: string;
  body: string;
  image?: string | null;
  url?: string;
  tag?: string;
}): string {
  const payload: PushPayload = {
    ...(input.id ? { id: input.id } : {}),
    title: input.title.slice(0, 120),
    body: input.body,
    icon: PUSH_ICON,
    ...(input.image && !input.image.startsWith("data:") && input.image.length <= 500 ? { image: input.image } : {}),
    url: input.url ?? (input.id ? `/messages/${input.id}` : "/notifications"),
    ...(input.tag ? { tag: input.tag } : {}),
  };
  let json = JSON.stringify(payload);
  if (bytes(json) <= PUSH_PAYLOAD_MAX_BYTES) return json;
  let body = Array.from(payload.body);
  while (bytes(json) > PUSH_PAYLOAD_MAX_BYTES && body.length > 0) {
    body = body.slice(0, Math.max(0, body.length - Math.max(1, Math.ceil((bytes(json) - PUSH_PAYLOAD_MAX_BYTES) / 2))));
    json = JSON.stringify({ ...payload, body: `${body.join("")}…` });
  }
  return json;
}

/** SPEC §7.3: the notification that greets a device that subscribed. */
export const WELCOME_PUSH = {
  title: "Merci de vous être abonné !",
  body: "Vous recevrez désormais des notifications sur les nouveautés et promotions.",
} as const;

