/**
 * What a marketing SMS says: the shop's name first (the person must know who writes),
 * the text, then the opt-out mention required for commercial SMS in France (CNIL,
 * FFTélécoms' code of conduct): « STOP au <number> », the number the gateway receives
 * replies on. A reply STOP there unsubscribes (the gateway's webhook, modules/messages/unsubscribe/sms-stop.ts).
 */
export const STOP_REPLY_WORDING = "STOP reçu par SMS";

function stopMention(stopNumber: string): string {
  return `STOP au ${stopNumber}`;
}

export function buildSmsText(input: {
  shopName: string;
  /** A message's title, on its own line before the body (the composer's "Titre"). */
  title?: string;
  body: string;
  stopNumber: string | null;
  marketing: boolean;
}) {
  const title = input.title?.trim();
  const body = input.body.trim();
  const text = title ? `${input.shopName} : ${title}\n${body}` : `${input.shopName} : ${body}`;
  return input.marketing && input.stopNumber ? `${text}\n${stopMention(input.stopNumber)}` : text;
}

/** A reply that asks to stop: "STOP", "stop", "Stop SMS", "ARRET", "arrêt", "désabonner"… */
export function isStopReply(text: string): boolean {
  const first = text
    .trim()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase();
  return /^(STOP|ARRET|STOPALL|UNSUBSCRIBE|DESABONNER|DESINSCRIRE)\b/.test(first);
}
