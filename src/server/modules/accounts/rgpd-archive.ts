import { sql } from "drizzle-orm";
import { strToU8 } from "fflate";
import { formatDateTimeIn, formatList } from "../../../domain/format.ts";
import { CSV_BOM, toCsv } from "../../../domain/loyalty/csv.ts";
import { DEFAULT_TIMEZONE } from "../../../domain/loyalty/time.ts";
import type { Db } from "../../db/client.ts";
import { ARCHIVE_FILES, type ArchiveFile, JSON_ONLY, type Names, type PersonalData } from "./rgpd-files.ts";

/**
 * The zip of « Mes données » (issue 25 row 9): LISEZ-MOI.txt first (what each file holds, when it was made, how to
 * correct, ask or erase), one French CSV per subject that has rows (a person opening an empty table learns nothing),
 * and donnees.json with every table as stored.
 */

const ids = (rows: PersonalData[keyof PersonalData][], column: string) => [
  ...new Set(rows.flatMap((r) => r.map((row) => row[column]).filter((v): v is string => typeof v === "string"))),
];

/** The names of the shops, contests and lots the person's rows point at, in one round trip. */
async function loadNames(db: Db, data: PersonalData): Promise<Names> {
  const all = Object.values(data);
  const shopIds = [...ids(all, "shop_id"), ...ids([data.member, data.invitation], "organization_id")];
  const contestIds = ids([data.contest_entries, data.contest_winnings], "contest_id");
  const list = (values: string[]) => sql`any(${sql.param(values)}::text[])`;
  const { rows } = await db.execute<{
    kind: string;
    id: string;
    name: string;
    extra: string | null;
    shop: string | null;
  }>(sql`
    select 'shop' as kind, id, name, card_mode as extra, null as shop from shops where id = ${list(shopIds)}
    union all
    select 'contest', c.id, c.title, c.kind, s.name from contests c join shops s on s.id = c.shop_id
    where c.id = ${list(contestIds)}
    union all
    select 'prize', p.id, l.name, null, null from contest_prizes p join prize_lots l on l.id = p.lot_id
    where p.id = ${list(ids([data.contest_entries], "prize_id"))}
    union all
    select 'lot', id, name, null, null from prize_lots where id = ${list(ids([data.contest_winnings], "lot_id"))}`);
  const found = new Map(rows.map((r) => [`${r.kind}:${r.id}`, r]));
  const of = (kind: string, id: unknown) => found.get(`${kind}:${String(id)}`);
  return {
    shop: (id) => of("shop", id)?.name ?? "Boutique fermée",
    cardMode: (id) => (of("shop", id)?.extra === "points" ? "points" : "stamps"),
    contest: (id) => {
      const c = of("contest", id);
      return c ? { title: c.name, kind: c.extra ?? "", shop: c.shop ?? "" } : undefined;
    },
    prizeLot: (id) => of("prize", id)?.name ?? "",
    lot: (id) => of("lot", id)?.name ?? "",
  };
}

type ReadmeContext = { email: string; now: Date; appUrl: string; contact: string };

function readme(written: ArchiveFile[], empty: ArchiveFile[], context: ReadmeContext): string {
  const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
  const jsonOnly = Object.values(JSON_ONLY);
  // One line per paragraph: every text editor wraps them to its own width.
  const lines = [
    "MES DONNÉES SUR FIDÈLE",
    "",
    `Archive faite le ${formatDateTimeIn(context.now, DEFAULT_TIMEZONE)} (heure de Paris) pour ${context.email}. Elle contient tout ce que Fidèle garde sur vous : c'est votre droit d'accès et de portabilité (RGPD, articles 15 et 20).`,
    "",
    "LES TABLEAUX",
    "Les fichiers .csv s'ouvrent avec un tableur (Excel, LibreOffice Calc, Numbers…). Les heures sont celles de Paris.",
    "",
    ...written.map((f) => `- ${f.name} : ${f.topic} — ${f.details}.`),
    "",
    ...(empty.length > 0
      ? [
          `Rien à vous montrer pour : ${formatList(empty.map((f) => lowerFirst(f.topic)))}. Ces sujets n'ont donc pas de fichier.`,
          "",
        ]
      : []),
    "LE FICHIER donnees.json",
    [
      "Les mêmes données, complètes et telles que Fidèle les enregistre (noms techniques des tables et des colonnes, identifiants), pour les reprendre dans un autre service.",
      ...(jsonOnly.length > 0 ? [`Il contient aussi ${formatList(jsonOnly)}.`] : []),
    ].join(" "),
    "",
    "CE QUI N'Y EST PAS, ET POURQUOI",
    "Votre mot de passe (Fidèle n'en garde qu'une empreinte), les jetons de vos sessions, le secret de la double authentification et les clés de notification de vos appareils : ils ne servent qu'à protéger votre compte et n'aideraient que quelqu'un qui mettrait la main sur cette archive. Les données d'autres personnes présentes dans des lignes qui vous concernent (l'adresse IP d'un commerçant, l'adresse e-mail d'une personne que vous avez invitée) sont effacées.",
    "",
    "UNE QUESTION, UNE CORRECTION, UN EFFACEMENT",
    `- Corriger vos informations : ${context.appUrl}/edit-profil`,
    `- Supprimer votre compte et vos données, tout de suite et définitivement : ${context.appUrl}/profil, « Supprimer mon compte ».`,
    `- Une question sur vos données, ou un autre droit à exercer (opposition, limitation…) : écrivez à ${context.contact} depuis l'adresse e-mail de votre compte. La réponse vient dans un délai d'un mois au plus.`,
    "- Si la réponse ne vous satisfait pas, vous pouvez saisir la CNIL : https://www.cnil.fr/fr/plaintes",
    "",
  ];
  return `${CSV_BOM}${lines.join("\r\n")}`;
}

/** Every file of the zip, by name. */
export async function archiveFiles(
  db: Db,
  data: PersonalData,
  me: { id: string; email: string },
  context: Omit<ReadmeContext, "email">,
): Promise<Record<string, Uint8Array>> {
  const names = await loadNames(db, data);
  const written: ArchiveFile[] = [];
  const empty: ArchiveFile[] = [];
  const csv: Record<string, Uint8Array> = {};
  for (const file of ARCHIVE_FILES) {
    const rows = file.rows(data, names, me);
    const first = rows[0];
    if (!first) {
      empty.push(file);
      continue;
    }
    written.push(file);
    const headers = Object.keys(first);
    csv[file.name] = strToU8(
      toCsv(
        headers,
        rows.map((r) => headers.map((h) => r[h])),
      ),
    );
  }
  return {
    "LISEZ-MOI.txt": strToU8(readme(written, empty, { ...context, email: me.email })),
    ...csv,
    "donnees.json": strToU8(JSON.stringify({ exportedAt: context.now.toISOString(), tables: data }, null, 2)),
  };
}
