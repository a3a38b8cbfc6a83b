import { useMutation } from "@tanstack/react-query";
import { type ChangeEvent, useState } from "react";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { commitImport, type ImportPreview, type Invitation, listInvitations, previewImport } from "../api/imports.ts";

const MODEL = "prenom;nom;email;points;prepaye;type_prepaye;libelle_prepaye;fin_validite";
/** Lines listed one by one in each group; the rest is counted (a 10,000-line file stays quick to show). */
const SHOWN = 200;

/** A file's text: UTF-8, or Windows-1252 when it is not (a CSV saved by Excel in France). */
async function readText(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

type Line = ImportPreview["lines"][number];

function LineGroup({ title, lines, tone }: { title: string; lines: Line[]; tone: "error" | "duplicate" | "ok" }) {
  if (lines.length === 0) return null;
  const colour =
    tone === "error"
      ? "text-red-800 dark:text-red-300"
      : tone === "duplicate"
        ? "text-amber-900 dark:text-amber-200"
        : "text-stone-800 dark:text-stone-200";
  return (
    <Section title={`${title} (${lines.length})`}>
      <ul className="mt-2 flex flex-col gap-2 text-sm">
        {lines.slice(0, SHOWN).map((l) => (
          <li key={l.line} className="rounded-lg bg-stone-50 px-3 py-2 dark:bg-stone-800">
            <span className="font-semibold">Ligne {l.line}</span>
            {l.summary ? <span> · {l.summary}</span> : null}
            {l.messages.map((m) => (
              <span key={m} className={`block ${colour}`}>
                {m}
              </span>
            ))}
          </li>
        ))}
      </ul>
      {lines.length > SHOWN ? (
        <p className="mt-2 text-sm text-stone-700 dark:text-stone-300">… et {lines.length - SHOWN} autres lignes.</p>
      ) : null}
    </Section>
  );
}

function Codes({ invitations }: { invitations: Invitation[] }) {
  return (
    <Section
      title="Codes à remettre"
      lead="Chaque client récupère son solde en saisissant son code dans l'app (Profil › Récupérer un code), une seule fois. Aucun compte n'a été créé et aucun e-mail envoyé."
      actions={
        <Button variant="secondary" onClick={() => window.print()}>
          Imprimer
        </Button>
      }
    >
      <ul className="mt-2 divide-y divide-stone-100 text-sm dark:divide-stone-800">
        {invitations.map((i) => (
          <li key={i.id} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 py-2">
            <span>
              <span className="font-semibold">{i.name ?? i.email ?? `Ligne ${i.line}`}</span>
              <span className="block text-stone-700 dark:text-stone-300">
                {[i.pointsLabel, i.prepaidLabel].filter(Boolean).join(" · ")}
              </span>
            </span>
            <span className="font-mono font-bold tracking-wider" data-testid="claim-code">
              {i.code}
            </span>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function ImportBody({ shopId }: { shopId: string }) {
  const [csv, setCsv] = useState<string | null>(null);
  const preview = useMutation({ mutationFn: (text: string) => previewImport(shopId, text) });
  const commit = useMutation({
    mutationFn: async (text: string) => {
      const done = await commitImport(shopId, text);
      return { ...done, invitations: await listInvitations(shopId, done.batchId) };
    },
  });
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    commit.reset();
    if (!file) return;
    const text = await readText(file);
    setCsv(text);
    preview.mutate(text);
  };
  const lines = preview.data?.lines ?? [];
  return (
    <div className="flex flex-col gap-5">
      <Section
        title="1. Le fichier"
        lead="Un CSV (séparateur ; ou ,) avec une ligne d'en-tête. Colonnes reconnues, dans n'importe quel ordre :"
      >
        <p className="mt-2 break-all rounded-lg bg-stone-50 px-3 py-2 font-mono text-sm dark:bg-stone-800">{MODEL}</p>
        <p className="mt-2 text-sm text-stone-700 dark:text-stone-300">
          « points » ou « prepaye » suffit. Le solde prépayé est en unités ou en euros (type_prepaye), avec sa fin de
          validité (JJ/MM/AAAA). Rien n'est créé avant votre confirmation.
        </p>
        <label className="mt-3 flex flex-col gap-1.5 text-sm font-medium">
          Fichier CSV
          <input
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => void choose(e)}
            className="min-h-12 rounded-xl border border-stone-300 bg-white p-2 text-base dark:border-stone-700 dark:bg-stone-900"
          />
        </label>
      </Section>
      {preview.isPending ? <p role="status">Lecture du fichier…</p> : null}
      {preview.isError ? <Notice tone="error">{errorText(preview.error)}</Notice> : null}
      {preview.data && !commit.data ? (
        <>
          <Section title="2. Aperçu">
            <p className="mt-2" data-testid="import-counts">
              {preview.data.counts.ok} ligne(s) à importer, {preview.data.counts.duplicate} doublon(s) ignoré(s),{" "}
              {preview.data.counts.error} ligne(s) en erreur.
            </p>
            {commit.isError ? (
              <div className="mt-3">
                <Notice tone="error">{errorText(commit.error)}</Notice>
              </div>
            ) : null}
            <Button
              className="mt-3"
              full
              disabled={preview.data.counts.ok === 0}
              isLoading={commit.isPending}
              onClick={() => csv && commit.mutate(csv)}
            >
              Importer {preview.data.counts.ok} ligne(s)
            </Button>
          </Section>
          <LineGroup title="Erreurs" tone="error" lines={lines.filter((l) => l.status === "error")} />
          <LineGroup title="Doublons" tone="duplicate" lines={lines.filter((l) => l.status === "duplicate")} />
          <LineGroup title="À importer" tone="ok" lines={lines.filter((l) => l.status === "ok")} />
        </>
      ) : null}
      {commit.data ? (
        <>
          <Notice tone="success">
            {commit.data.counts.created} solde(s) importé(s) : chacun attend que son client le récupère avec son code.
          </Notice>
          <Codes invitations={commit.data.invitations} />
        </>
      ) : null}
    </div>
  );
}

/** /admin/import-clients (owner): former customers and balances from a CSV, previewed line by line (ADR 0049). */
export default function ImportPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      title="Importer des clients"
      lead="Reprenez les soldes de vos anciennes cartes (papier ou autre application) : points et carnets ou cartes cadeaux."
      back={{ to: "/admin/prepaye", label: "Carnets et cartes cadeaux" }}
    >
      {(shop) => <ImportBody shopId={shop.id} />}
    </BackOfficeFrame>
  );
}
