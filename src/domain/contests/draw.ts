/**
 * The verifiable draw. Pure, dependency-free, and runnable as is by Node ≥ 22.6 (type stripping) and browsers:
 * scripts/verify-draw.mjs imports this very file, so the check and the draw cannot drift.
 *
 * 1. When a draw is scheduled, the server picks a secret seed (32 random bytes, as 64 hex characters) and publishes
 *    its commitment: SHA-256 of the seed's text (`printf %s SEED | sha256sum`).
 * 2. At the draw, the list of tickets is frozen: one line per ticket, `ticketId participantId`, sorted by ticket id
 *    (code-unit order), joined with "\n". Its SHA-256 is published with the list and the seed.
 * 3. Winners: for counter = 0, 1, 2, …, h = HMAC-SHA256(key = seed text, message = `${listHash}:${counter}`);
 *    x = the first 4 bytes of h as an unsigned big-endian integer; with n tickets, x ≥ floor(2^32 / n) · n is
 *    rejected (no modulo bias), else the ticket at index x mod n is drawn — unless its participant was already
 *    drawn, then it is skipped. The order in which participants are drawn is the sequence: the first k win the
 *    k prizes in the contest's order, and a winner who does not claim in time is replaced by the next one.
 */

export type Ticket = { ticketId: string; participantId: string };

const encoder = new TextEncoder();

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

export async function sha256Hex(text: string): Promise<string> {
  return hex(await globalThis.crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

async function hmacKey(secret: string) {
  return globalThis.crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
}

/** A new secret seed: 32 bytes from the platform's CSPRNG, as hex. */
export function newSeed(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return hex(bytes.buffer);
}

export const seedCommitment = (seed: string) => sha256Hex(seed);

const byTicketId = (a: Ticket, b: Ticket) => (a.ticketId < b.ticketId ? -1 : a.ticketId > b.ticketId ? 1 : 0);

/** The published list: tickets sorted by id, one `ticketId participantId` line each. */
export function ticketListText(tickets: readonly Ticket[]): string {
  return [...tickets]
    .sort(byTicketId)
    .map((t) => `${t.ticketId} ${t.participantId}`)
    .join("\n");
}

const TWO_32 = 2 ** 32;

/**
 * The order in which participants are drawn (at most `count`, or every participant). Deterministic in the seed and
 * the list; the list's order as given does not matter (it is sorted first).
 */
export async function drawSequence(
  seed: string,
  tickets: readonly Ticket[],
  count = Number.POSITIVE_INFINITY,
): Promise<{ listHash: string; sequence: Ticket[] }> {
  const sorted = [...tickets].sort(byTicketId);
  const listHash = await sha256Hex(ticketListText(sorted));
  const participants = new Set(sorted.map((t) => t.participantId));
  const want = Math.min(count, participants.size);
  const sequence: Ticket[] = [];
  const chosen = new Set<string>();
  const n = sorted.length;
  if (n === 0 || want === 0) return { listHash, sequence };
  const key = await hmacKey(seed);
  const limit = Math.floor(TWO_32 / n) * n;
  // Each step draws a ticket; a participant's other tickets stay in the list and are skipped when drawn.
  for (let counter = 0; sequence.length < want; counter++) {
    const mac = new Uint8Array(
      await globalThis.crypto.subtle.sign("HMAC", key, encoder.encode(`${listHash}:${counter}`)),
    );
    const x = ((mac[0]! << 24) | (mac[1]! << 16) | (mac[2]! << 8) | mac[3]!) >>> 0;
    if (x >= limit) continue;
    const ticket = sorted[x % n]!;
    if (chosen.has(ticket.participantId)) continue;
    chosen.add(ticket.participantId);
    sequence.push(ticket);
  }
  return { listHash, sequence };
}

/** Checks a published draw: the seed matches its commitment, the list its hash; returns the sequence. */
export async function verifyDraw(input: {
  seed: string;
  commitment: string;
  listHash: string;
  tickets: readonly Ticket[];
  count?: number;
}): Promise<{ seedMatches: boolean; listMatches: boolean; sequence: Ticket[] }> {
  const seedMatches = (await seedCommitment(input.seed)) === input.commitment.toLowerCase();
  const { listHash, sequence } = await drawSequence(input.seed, input.tickets, input.count);
  return { seedMatches, listMatches: listHash === input.listHash.toLowerCase(), sequence };
}
