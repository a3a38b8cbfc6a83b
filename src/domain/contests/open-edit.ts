import { formatList, pluralWord } from "../format.ts";
import type { ContestKind, Eligibility, SpinPeriod } from "./contests.ts";

/**
 * What the owner may still change once a contest is open (issue 25 row 6). Its règlement is published and people have
 * taken part under it: who may play, how often, from when and for what prizes bind the shop. The title, the
 * description and a later end may change; a change to a locked field is refused and named, never dropped in silence.
 * The server refuses (contests.service.ts) and the form shows the same fields disabled with the same reason.
 */
const OPEN_CONTEST_LOCKED_FIELDS = [
  "kind",
  "startsAt",
  "eligibility",
  "entriesPerPerson",
  "spinPeriod",
  "prizes",
] as const;
type LockedContestField = (typeof OPEN_CONTEST_LOCKED_FIELDS)[number];

/** The form's own labels, so the refusal names what the owner sees. */
const LOCKED_FIELD_LABELS_FR: Record<Exclude<LockedContestField, "prizes">, string> = {
  kind: "Type de jeu",
  startsAt: "Début",
  eligibility: "Qui peut participer",
  entriesPerPerson: "Participations par personne",
  spinPeriod: "Fréquence de jeu",
};
const lockedFieldLabel = (field: LockedContestField, kind: ContestKind) =>
  field === "prizes" ? (kind === "draw" ? "Lots à gagner" : "Cases de la roue") : LOCKED_FIELD_LABELS_FR[field];

const WHY = "le concours est ouvert, le règlement publié engage la boutique";
export const OPEN_CONTEST_LOCK_REASON_FR = `Verrouillé : ${WHY}.`;

type Prize = { lotId: string; quantity: number; oddsBp: number };
export type ContestTerms = {
  kind: ContestKind;
  startsAt: Date;
  eligibility: Eligibility;
  entriesPerPerson: number;
  spinPeriod: SpinPeriod;
  prizes: readonly Prize[];
};

/** A datetime-local field keeps minutes only: the same minute is the same start. */
const minute = (d: Date) => Math.floor(d.getTime() / 60_000);

/**
 * The end an edit of an open contest asks for: a later one, or the stored one when the form sends the same minute
 * (it has no seconds); null when it is earlier — a contest in progress may be extended, not shortened.
 */
export function extendedEnd(current: Date, next: Date): Date | null {
  if (minute(next) === minute(current)) return current;
  return next > current ? next : null;
}

/** What each prize promises, whatever the order the form lists them in. */
const promises = (kind: ContestKind, prizes: readonly Prize[]) =>
  prizes
    .map((p) => `${p.lotId}:${kind === "draw" ? p.quantity : p.oddsBp}`)
    .sort()
    .join(",");

/**
 * The locked fields an edit would change. A field that does not apply to the kind (a wheel's entries per person, a
 * draw's spin period) is not compared: the form sends its default.
 */
export function changedLockedFields(current: ContestTerms, next: ContestTerms): LockedContestField[] {
  const changed: LockedContestField[] = [];
  if (next.kind !== current.kind) changed.push("kind");
  if (minute(next.startsAt) !== minute(current.startsAt)) changed.push("startsAt");
  if (next.eligibility !== current.eligibility) changed.push("eligibility");
  if (current.kind === "draw" && next.entriesPerPerson !== current.entriesPerPerson) changed.push("entriesPerPerson");
  if (current.kind === "wheel" && next.spinPeriod !== current.spinPeriod) changed.push("spinPeriod");
  if (promises(current.kind, next.prizes) !== promises(current.kind, current.prizes)) changed.push("prizes");
  return changed;
}

/** « « Début » ne peut plus changer : le concours est ouvert, le règlement publié engage la boutique. » */
export function lockedFieldsMessage(fields: readonly LockedContestField[], kind: ContestKind): string {
  const names = formatList(fields.map((f) => `« ${lockedFieldLabel(f, kind)} »`));
  return `${names} ${pluralWord(fields.length, "ne peut", "ne peuvent")} plus changer : ${WHY}.`;
}
