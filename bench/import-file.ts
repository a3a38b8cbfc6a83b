/**
 * A shop's import file of `lines` customers (issue 28 item 4) with mistakes at fixed places, one kind per line:
 * line ≡ 0 (mod 10) a bad address, ≡ 5 a validity already over, ≡ 7 (mod 20) nothing to import, ≡ 3 the address of
 * the line before (a duplicate). bench/import.ts and tests/api/prepaid-import.test.ts read the same file.
 */
export function importFile(lines: number, tag: string) {
  const out = ["prenom;nom;email;points;prepaye;type_prepaye;libelle_prepaye;fin_validite"];
  const expected = { ok: 0, duplicate: 0, error: 0 };
  for (let i = 1; i <= lines; i++) {
    const r = i % 10;
    const email = r === 0 ? `pas-une-adresse-${i}` : `client-${tag}-${r === 3 ? i - 1 : i}@exemple.fr`;
    const nothing = i % 20 === 7;
    const points = nothing ? "" : String(1 + (i % 100));
    const kind = nothing ? "" : i % 2 === 0 ? "unités" : "euros";
    const prepaid = nothing ? "" : kind === "unités" ? "4" : "12,50";
    const title = kind === "unités" ? "Carnet de 10 coupes" : "";
    const lastDay = nothing ? "" : r === 5 ? "01/01/2020" : "31/12/2030";
    out.push([`Prénom${i}`, `Nom ${i}`, email, points, prepaid, kind, title, lastDay].join(";"));
    if (r === 0 || r === 5 || nothing) expected.error++;
    else if (r === 3) expected.duplicate++;
    else expected.ok++;
  }
  return { csv: `${out.join("\r\n")}\r\n`, expected };
}
