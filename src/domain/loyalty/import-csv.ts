import { type CardMode, formatAmount, formatNumber } from "../format.ts";
import { PREPAID_CENTS_MAX, PREPAID_UNITS_MAX, type PrepaidKind, prepaidAmountLabel } from "./prepaid.ts";

/**
 * A shop's former customers and balances as a CSV (issue 28 item 4, ADR 0049), read line by line into what would be
 * created, what is a duplicate and what is wrong — in French, naming the line. Pure: the preview and the import run
 * the same reading, and the import reads the file again (never the preview's word for it).
 *
 * Columns, by their header (case, accents, spaces and dashes ignored; `;` or `,` between cells):
 * prenom, nom, email, points, prepaye (a number: units, or euros with a decimal comma), type_prepaye (« unités » or
 * « euros »), libelle_prepaye, fin_validite (JJ/MM/AAAA). Only one of points and prepaye is needed.
 */

const IMPORT_LINES_MAX = 20_000;
const IMPORT_POINTS_MAX = 100_000;

type ImportRow = {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  points: number;
  prepaid: { kind: PrepaidKind; amount: number; title: string; lastDay: string } | null;
};

export type ImportLine =
  | { line: number; status: "ok"; row: ImportRow; summary: string }
  | { line: number; status: "duplicate"; row: ImportRow; summary: string; messages: string[] }
  | { line: number; status: "error"; messages: string[] };

const COLUMNS = {
  prenom: "firstName",
  nom: "lastName",
  email: "email",
  mail: "email",
  points: "points",
  prepaye: "prepaid",
  typeprepaye: "prepaidKind",
  libelleprepaye: "prepaidTitle",
  finvalidite: "lastDay",
  findevalidite: "lastDay",
  expiration: "lastDay",
} as const;
type Column = (typeof COLUMNS)[keyof typeof COLUMNS];

const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[\s_\-'’.]/g, "");

/** RFC 4180 cells with quotes, on `;` or `,` (the header line decides), CRLF or LF. */
export function splitCsv(text: string): string[][] {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const firstLine = body.slice(0, body.search(/\r?\n|$/));
  const sep = (firstLine.match(/;/g)?.length ?? 0) >= (firstLine.match(/,/g)?.length ?? 0) ? ";" : ",";
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (quoted) {
      if (ch === '"') {
        if (body[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else cell += ch;
    } else if (ch === '"' && cell === "") quoted = true;
    else if (ch === sep) {
      row.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && body[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += ch;
  }
  if (cell !== "" || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function parseDay(value: string): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value.trim());
  if (!m) return null;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

function parseKind(value: string): PrepaidKind | null {
  const v = fold(value);
  if (["unites", "unite", "carnet", "u"].includes(v)) return "units";
  if (["euros", "euro", "eur", "€", "cartecadeau"].includes(v)) return "euros";
  return null;
}

function summaryOf(row: ImportRow, mode: CardMode): string {
  const who = [row.firstName, row.lastName].filter(Boolean).join(" ") || row.email || "Sans nom";
  const what = [
    row.points > 0 ? formatAmount(mode, row.points) : null,
    row.prepaid ? `${row.prepaid.title} : ${prepaidAmountLabel(row.prepaid.kind, row.prepaid.amount)}` : null,
  ].filter(Boolean);
  return `${who} — ${what.join(", ")}`;
}

/**
 * Every line of the file: ok, duplicate (an address seen earlier in the file or in `knownEmails`, already imported
 * and waiting), or error with every reason. `today` (YYYY-MM-DD, the shop's) refuses a validity already over.
 */
export function readImportCsv(
  text: string,
  opts: { today: string; mode: CardMode; knownEmails?: ReadonlySet<string> },
): { lines: ImportLine[]; headerError: string | null } {
  const rows = splitCsv(text);
  const header = rows[0];
  if (!header) return { lines: [], headerError: "Le fichier est vide." };
  const columns: (Column | null)[] = header.map((h) => COLUMNS[fold(h) as keyof typeof COLUMNS] ?? null);
  if (!columns.includes("points") && !columns.includes("prepaid"))
    return {
      lines: [],
      headerError:
        "La première ligne doit nommer les colonnes, dont « points » ou « prepaye » (voir le modèle : prenom;nom;email;points;prepaye;type_prepaye;libelle_prepaye;fin_validite).",
    };
  if (rows.length - 1 > IMPORT_LINES_MAX)
    return { lines: [], headerError: `Trop de lignes : ${formatNumber(IMPORT_LINES_MAX)} au plus par fichier.` };
  const seen = new Map<string, number>();
  const lines: ImportLine[] = [];
  for (let i = 1; i < rows.length; i++) {
    const cells = rows[i]!;
    const line = i + 1;
    if (cells.every((c) => c.trim() === "")) continue;
    const get = (c: Column) => {
      const at = columns.indexOf(c);
      return at < 0 ? "" : (cells[at] ?? "").trim();
    };
    const messages: string[] = [];
    const firstName = get("firstName") || null;
    const lastName = get("lastName") || null;
    if ((firstName?.length ?? 0) > 80 || (lastName?.length ?? 0) > 80)
      messages.push("Prénom ou nom trop long (80 caractères au plus).");
    const email = get("email").toLowerCase() || null;
    if (email && (!EMAIL.test(email) || email.length > 200)) messages.push(`Adresse e-mail invalide : « ${email} ».`);
    let points = 0;
    const rawPoints = get("points");
    if (rawPoints !== "") {
      if (!/^\d+$/.test(rawPoints))
        messages.push(`Points : un nombre entier positif est attendu, pas « ${rawPoints} ».`);
      else if (Number(rawPoints) > IMPORT_POINTS_MAX)
        messages.push(`Points : ${formatNumber(IMPORT_POINTS_MAX)} au plus par client.`);
      else points = Number(rawPoints);
    }
    let prepaid: ImportRow["prepaid"] = null;
    const rawPrepaid = get("prepaid");
    if (rawPrepaid !== "" && rawPrepaid !== "0") {
      const kind = parseKind(get("prepaidKind"));
      const lastDay = parseDay(get("lastDay"));
      if (!kind) messages.push("Type du solde prépayé : « unités » ou « euros ».");
      if (!get("lastDay")) messages.push("Fin de validité manquante pour le solde prépayé (JJ/MM/AAAA).");
      else if (!lastDay) messages.push(`Fin de validité invalide : « ${get("lastDay")} » (JJ/MM/AAAA attendu).`);
      else if (lastDay < opts.today) messages.push(`Fin de validité déjà passée : ${get("lastDay")}.`);
      if (kind === "units") {
        if (!/^\d+$/.test(rawPrepaid))
          messages.push(`Solde en unités : un nombre entier est attendu, pas « ${rawPrepaid} ».`);
        else if (Number(rawPrepaid) > PREPAID_UNITS_MAX)
          messages.push(`Solde en unités : ${PREPAID_UNITS_MAX} au plus.`);
      } else if (kind === "euros") {
        if (!/^\d+([,.]\d{1,2})?$/.test(rawPrepaid))
          messages.push(`Solde en euros invalide : « ${rawPrepaid} » (ex. 24,50).`);
        else if (Math.round(Number(rawPrepaid.replace(",", ".")) * 100) > PREPAID_CENTS_MAX)
          messages.push(`Solde en euros : ${prepaidAmountLabel("euros", PREPAID_CENTS_MAX)} au plus.`);
      }
      if (kind && lastDay && messages.length === 0) {
        const amount = kind === "units" ? Number(rawPrepaid) : Math.round(Number(rawPrepaid.replace(",", ".")) * 100);
        const title = get("prepaidTitle").slice(0, 80) || (kind === "units" ? "Carnet repris" : "Carte cadeau reprise");
        if (amount > 0) prepaid = { kind, amount, title, lastDay };
      }
    }
    if (messages.length === 0 && points === 0 && !prepaid)
      messages.push("Rien à reprendre : ni points ni solde prépayé.");
    if (messages.length > 0) {
      lines.push({ line, status: "error", messages });
      continue;
    }
    const row: ImportRow = { firstName, lastName, email, points, prepaid };
    const earlier = email ? seen.get(email) : undefined;
    if (email && earlier !== undefined) {
      lines.push({
        line,
        status: "duplicate",
        row,
        summary: summaryOf(row, opts.mode),
        messages: [`Même adresse que la ligne ${earlier} : ligne ignorée.`],
      });
    } else if (email && opts.knownEmails?.has(email)) {
      lines.push({
        line,
        status: "duplicate",
        row,
        summary: summaryOf(row, opts.mode),
        messages: ["Cette adresse a déjà un solde importé en attente : ligne ignorée."],
      });
    } else {
      if (email) seen.set(email, line);
      lines.push({ line, status: "ok", row, summary: summaryOf(row, opts.mode) });
    }
  }
  return { lines, headerError: null };
}
