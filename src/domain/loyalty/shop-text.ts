/** Text helpers of shops: slugs, accent-free search, SIRET. */

/** "Boulangerie du Marché" → "boulangerie-du-marche". */
export function slugify(text: string): string {
  return (
    text
      .normalize("NFD")
      .replace(/\p{Diacritic}/gu, "")
      .toLowerCase()
      .replace(/œ/g, "oe")
      .replace(/æ/g, "ae")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60)
      .replace(/-+$/g, "") || "boutique"
  );
}

/** Lower case without accents: what shop search compares (the SQL side uses the same table, SEARCH_FOLD_FROM/TO). */
export function foldSearch(text: string): string {
  return text.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase().trim();
}

/** For SQL `translate(lower(x), FROM, TO)`: the accented letters French names use. */
export const SEARCH_FOLD_FROM = "àâäáãåçéèêëíìîïñóòôöõúùûüýÿ";
export const SEARCH_FOLD_TO = "aaaaaaceeeeiiiinooooouuuuyy";

/**
 * SIRET: 14 digits whose Luhn sum is a multiple of 10 (INSEE). La Poste's
 * establishments (SIREN 356 000 000) may instead have a digit sum that is a
 * multiple of 5.
 */
export function isValidSiret(value: string): boolean {
  if (!/^\d{14}$/.test(value)) return false;
  if (luhnOk(value)) return true;
  return value.startsWith("356000000") && [...value].reduce((s, d) => s + Number(d), 0) % 5 === 0;
}

function luhnOk(value: string): boolean {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    let d = Number(value[13 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
