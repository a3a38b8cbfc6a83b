/** "45,7640" or "45.7640" → 45.764; empty → null; anything else stays as typed for the schema to refuse. */
export function readCoordinate(value: FormDataEntryValue | null): number | string | null {
  const text = String(value ?? "")
    .trim()
    .replace(",", ".");
  if (text === "") return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}
