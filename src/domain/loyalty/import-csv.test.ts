import { describe, expect, it } from "vitest";
import { readImportCsv, splitCsv } from "./import-csv.ts";

describe("reading a shop's import file", () => {
  it("splits cells on the header's separator, with quotes, CRLF and a byte-order mark", () => {
    expect(splitCsv('\uFEFFprenom;nom\r\n"Anne; Marie";"O""Neil"\r\nLéa;\n')).toEqual([
      ["prenom", "nom"],
      ["Anne; Marie", 'O"Neil'],
      ["Léa", ""],
    ]);
    expect(splitCsv("email,points\na@b.fr,3")).toEqual([
      ["email", "points"],
      ["a@b.fr", "3"],
    ]);
  });

  it("reads headers whatever their case, accents or dashes, and euros with a decimal comma", () => {
    const { lines } = readImportCsv(
      "Prénom;E-mail;Prépayé;Type prépayé;Fin de validité\nLéa;LEA@EX.FR;24,5;euros;31/12/2030\n",
      {
        today: "2026-11-26",
        mode: "stamps",
      },
    );
    expect(lines).toEqual([
      {
        line: 2,
        status: "ok",
        row: {
          firstName: "Léa",
          lastName: null,
          email: "lea@ex.fr",
          points: 0,
          prepaid: { kind: "euros", amount: 2450, title: "Carte cadeau reprise", lastDay: "2030-12-31" },
        },
        summary: expect.stringMatching(/^Léa — Carte cadeau reprise : 24,50\s€$/),
      },
    ]);
  });

  it("names every mistake of a line in French", () => {
    const { lines } = readImportCsv("email;points;prepaye;type_prepaye;fin_validite\nx@;-3;2;litres;31/02/2030\n", {
      today: "2026-11-26",
      mode: "points",
    });
    expect(lines).toEqual([
      {
        line: 2,
        status: "error",
        messages: [
          "Adresse e-mail invalide : « x@ ».",
          "Points : un nombre entier positif est attendu, pas « -3 ».",
          "Type du solde prépayé : « unités » ou « euros ».",
          "Fin de validité invalide : « 31/02/2030 » (JJ/MM/AAAA attendu).",
        ],
      },
    ]);
  });
});
