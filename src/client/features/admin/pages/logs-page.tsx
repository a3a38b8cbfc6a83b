import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDateTime, plural } from "../../../../domain/format.ts";
import { Field } from "../../../components/ui/field.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { DownloadButton } from "../../../components/ui/download-button.tsx";
import { api, unwrap } from "../../../lib/api-client.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { adminKeys } from "../api/keys.ts";

type Filters = { action: string; who: string; shopId: string; from: string; to: string };
const EMPTY: Filters = { action: "", who: "", shopId: "", from: "", to: "" };

/** The query string of the filters that are set. */
function queryOf(f: Filters): Record<string, string> {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v.trim() !== ""));
}

function detailText(details: Record<string, unknown> | null): string {
  if (!details) return "";
  const parts: string[] = [];
  if (typeof details.reason === "string") parts.push(`Motif : ${details.reason}`);
  if (typeof details.delta === "number") parts.push(`${details.delta > 0 ? "+" : ""}${details.delta}`);
  if (typeof details.rows === "number") parts.push(plural(details.rows, "ligne", "lignes"));
  if (typeof details.role === "string") parts.push(`rôle ${details.role}`);
  if (typeof details.winners === "number") parts.push(plural(details.winners, "gagnant", "gagnants"));
  if (typeof details.from === "string" && typeof details.to === "string")
    parts.push(`rôle ${details.from} → ${details.to}`);
  if (typeof details.section === "string") parts.push(`réglage ${details.section}`);
  if (typeof details.title === "string") parts.push(`« ${details.title} »`);
  if (typeof details.name === "string") parts.push(`« ${details.name} »`);
  if (typeof details.scope === "string" && details.scope === "all-shops") parts.push("toutes les boutiques");
  return parts.join(" · ");
}

/** /admin/logs: the audit log of privileged actions (platform admin, SPEC §6). */
export default function LogsPage() {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const logs = useQuery({
    queryKey: adminKeys.logs(filters),
    queryFn: () => unwrap(api.admin.logs.$get({ query: { ...queryOf(filters), limit: "200", offset: "0" } })),
    placeholderData: keepPreviousData,
  });
  const csvUrl = `/api/admin/logs.csv?${new URLSearchParams(queryOf(filters)).toString()}`;
  const set = (key: keyof Filters) => (e: { target: { value: string } }) =>
    setDraft({ ...draft, [key]: e.target.value });
  return (
    <BackOfficeFrame
      scope="platform"
      title="Journal"
      lead="Chaque action sensible : qui, quoi, quand et d'où. Le journal ne s'efface pas."
      actions={
        <DownloadButton url={csvUrl} fallbackName="journal.csv">
          Exporter en CSV
        </DownloadButton>
      }
    >
      <form
        className="grid grid-cols-1 gap-3 rounded-2xl border border-stone-200 bg-white p-4 sm:grid-cols-2 dark:border-stone-800 dark:bg-stone-900"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters(draft);
        }}
      >
        <SelectField label="Action" value={draft.action} onChange={set("action")} options={logs.data?.actions}>
          <option value="">Toutes</option>
        </SelectField>
        <Field label="Qui (e-mail ou nom)" value={draft.who} onChange={set("who")} />
        <Field label="Identifiant de boutique" value={draft.shopId} onChange={set("shopId")} />
        <div className="grid grid-cols-2 gap-3">
          <Field label="Du" type="date" value={draft.from} onChange={set("from")} />
          <Field label="Au" type="date" value={draft.to} onChange={set("to")} />
        </div>
        <div className="flex gap-3 sm:col-span-2">
          <button type="submit" className="min-h-11 rounded-xl bg-brand-700 px-4 font-semibold text-white">
            Filtrer
          </button>
          <button
            type="button"
            className="min-h-11 px-2 font-semibold text-brand-800 underline dark:text-brand-200"
            onClick={() => {
              setDraft(EMPTY);
              setFilters(EMPTY);
            }}
          >
            Effacer les filtres
          </button>
        </div>
      </form>
      <QueryState query={logs}>
        {(data) => (
          <section aria-labelledby="log-title" className="flex flex-col gap-3">
            <h2 id="log-title" className="text-lg font-semibold">
              {data.totalIsCapped ? "Plus de " : ""}
              {plural(data.total, "action", "actions")}
            </h2>
            {data.entries.length === 0 ? (
              <p className="text-stone-700 dark:text-stone-300">Aucune action ne correspond à ces filtres.</p>
            ) : (
              <ul className="flex flex-col gap-2">
                {data.entries.map((e) => (
                  <li
                    key={e.id}
                    className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
                  >
                    <div className="flex flex-wrap items-baseline justify-between gap-2">
                      <p className="font-semibold">{e.actionLabel}</p>
                      <p className="text-sm text-stone-600 dark:text-stone-400">{formatDateTime(e.createdAt)}</p>
                    </div>
                    <p className="text-sm text-stone-700 dark:text-stone-300">
                      {e.actor ? (e.actor.email ?? "Compte supprimé") : "Système"}
                      {e.shop ? ` · ${e.shop.name ?? "Boutique supprimée"}` : ""}
                      {e.ip ? ` · ${e.ip}` : ""}
                    </p>
                    {detailText(e.details) ? <p className="mt-1 text-sm">{detailText(e.details)}</p> : null}
                  </li>
                ))}
              </ul>
            )}
          </section>
        )}
      </QueryState>
    </BackOfficeFrame>
  );
}
