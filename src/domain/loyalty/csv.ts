import { formatShortDateTimeIn } from "./time.ts";

/**
 * CSV for Excel in France: `;` separator (the comma is the decimal mark), CRLF,
 * a UTF-8 byte-order mark so accents open right, and text cells that a
 * spreadsheet would run as a formula (=, +, -, @, tab, CR) prefixed with a quote
 * (OWASP "CSV Injection").
 */
export const CSV_BOM = "\uFEFF";
export type CsvValue = string | number | boolean | null | undefined | Date;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value).replace(".", ",") : "";
  if (typeof value === "boolean") return value ? "oui" : "non";
  let text = value instanceof Date ? value.toISOString() : value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  if (/[;"\r\n]/.test(text)) text = `"${text.replace(/"/g, '""')}"`;
  return text;
}

/** One CSV line, CRLF included (streamed exports write line by line). */
export const csvLine = (cells: readonly CsvValue[]) => `${cells.map(csvCell).join(";")}\r\n`;

export function toCsv(headers: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  const lines = [headers.map(csvCell).join(";"), ...rows.map((r) => r.map(csvCell).join(";"))];
  return `${CSV_BOM}${lines.join("\r\n")}\r\n`;
}

/** "12/03/2026 15:42" in the shop's time zone, for spreadsheet cells. */
export function csvDateTime(value: Date | null, tz: string): string {
  return value ? formatShortDateTimeIn(value, tz) : "";
}
