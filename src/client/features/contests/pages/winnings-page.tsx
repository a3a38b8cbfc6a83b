import { useDeferredValue, useState } from "react";
import { WINNING_STATUS_LABELS_FR, WINNING_STATUSES } from "../../../../domain/contests/contests.ts";
import { formatDate, plural } from "../../../../domain/format.ts";
import { Field } from "../../../components/ui/field.tsx";
import { labelOptions, SelectField } from "../../../components/ui/select-field.tsx";
import { buttonClass } from "../../../components/ui/button.tsx";
import { useWinnings, type WinningsFilter, winningsCsvUrl } from "../api/winnings.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { tabsOf } from "../../../components/back-office/menu.ts";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Section } from "../../../components/ui/section.tsx";

function Winnings({ shopId }: { shopId: string }) {
  const [q, setQ] = useState("");
  const [status, setStatus] = useState<WinningsFilter["status"]>("all");
  const filter = { q: useDeferredValue(q), status };
  const list = useWinnings(shopId, filter);
  return (
    <Section
      title="Lots gagnés"
      actions={
        <a href={winningsCsvUrl(shopId, filter)} download className={buttonClass("secondary")}>
          Exporter en CSV
        </a>
      }
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Rechercher (code, lot, gagnant, jeu)" type="search" value={q} onValue={setQ} />
        <SelectField
          label="Statut"
          value={status}
          onChange={(e) => setStatus(e.target.value as WinningsFilter["status"])}
          options={labelOptions(WINNING_STATUSES, WINNING_STATUS_LABELS_FR)}
        >
          <option value="all">Tous</option>
        </SelectField>
      </div>
      {list.isPending ? (
        <p aria-busy="true">Chargement…</p>
      ) : list.error ? (
        <LoadError error={list.error} />
      ) : list.data.winnings.length === 0 ? (
        <p className="mt-4 text-stone-700 dark:text-stone-300">Aucun lot gagné ne correspond.</p>
      ) : (
        <>
          <p className="mt-4 text-sm text-stone-700 dark:text-stone-300" aria-live="polite">
            {plural(list.data.winnings.length, "lot", "lots")}
          </p>
          <ul className="mt-2 flex flex-col divide-y divide-stone-200 dark:divide-stone-800">
            {list.data.winnings.map((w) => (
              <li key={w.id} className="py-3">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <p className="font-semibold">{w.lotName}</p>
                  <span className="rounded-full bg-stone-100 px-2 py-0.5 text-sm font-semibold dark:bg-stone-800">
                    {w.statusLabel}
                  </span>
                </div>
                <p className="text-sm text-stone-700 dark:text-stone-300">
                  {w.winnerName} · {w.contestTitle} · code <span className="font-mono font-semibold">{w.code}</span>
                </p>
                <p className="text-sm text-stone-700 dark:text-stone-300">
                  Gagné le {formatDate(w.createdAt)} ·{" "}
                  {w.handedOverAt
                    ? `remis le ${formatDate(w.handedOverAt)}${w.handedOverByName ? ` par ${w.handedOverByName}` : ""}`
                    : `à retirer avant le ${formatDate(w.claimBy)}`}
                  {w.note ? ` · ${w.note}` : ""}
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
    </Section>
  );
}

/** /admin/gestion-des-lots-2: every lot won, its status, searchable, exportable. */
export default function WinningsPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      tabs={tabsOf("Jeux")}
      title="Lots gagnés"
      lead="Chaque lot gagné, à remettre, remis, expiré ou réattribué. Remettez-les depuis l'écran de validation."
    >
      {(shop) => <Winnings shopId={shop.id} />}
    </BackOfficeFrame>
  );
}
