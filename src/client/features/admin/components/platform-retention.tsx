import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDecimal, formatNumber, formatPercent, plural, pluralWord } from "../../../../domain/format.ts";
import { Button } from "../../../components/ui/button.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { api, unwrap } from "../../../lib/api-client.ts";
import { adminKeys } from "../api/keys.ts";

const PAGE = 20;

const getRetention = (offset: number) =>
  unwrap(api.admin.retention.$get({ query: { limit: String(PAGE), offset: String(offset) } }));
type Retention = Awaited<ReturnType<typeof getRetention>>;
type Volumes = Retention["totals"]["automations"][number];

/** « 3 revenus sur 12 (25 %) », or « personne » when the group is empty. */
const returnedFr = (returned: number, people: number) =>
  people === 0
    ? "personne"
    : `${formatNumber(returned)} ${pluralWord(returned, "revenu", "revenus")} sur ${formatNumber(people)} (${formatPercent(returned / people)})`;

/** One automation's volumes in a sentence: sent, held out, and who came back in each group. */
function VolumesLine({ v, state }: { v: Volumes; state?: string }) {
  return (
    <li data-testid="automation-volumes">
      <span className="font-semibold">{v.label}</span>
      {state ? ` (${state})` : ""} : {plural(v.sent, "envoi", "envois")}, {returnedFr(v.returned, v.sent)} ;{" "}
      {plural(v.heldOut, "client témoin", "clients témoins")}, {returnedFr(v.heldOutReturned, v.heldOut)}.
    </li>
  );
}

/**
 * Issue 27 item 4, in the console's shops view: retention across shops (each shop's rhythm, regulars, customers at
 * risk) and what each shop's automations sent, held out and brought back over the last 30 days.
 */
export function PlatformRetention() {
  const [offset, setOffset] = useState(0);
  const query = useQuery({
    queryKey: adminKeys.retention(offset),
    queryFn: () => getRetention(offset),
    placeholderData: keepPreviousData,
  });
  return (
    <Section bare stack id="fidelisation" title="Fidélisation et automatisations">
      <QueryState query={query} blocks={2}>
        {(data) => {
          const active = data.totals.automations.filter((a) => a.sent + a.heldOut > 0);
          return (
            <>
              <p className="text-sm text-stone-700 dark:text-stone-300">
                Toutes boutiques confondues : {plural(data.totals.regulars, "client régulier", "clients réguliers")}{" "}
                dans {plural(data.totals.shops, "boutique mesurée", "boutiques mesurées")}, dont{" "}
                {plural(data.totals.atRisk, "à risque", "à risque")} (absents au-delà de leur rythme habituel).
              </p>
              <div className="rounded-2xl border border-stone-200 bg-white p-4 text-sm dark:border-stone-800 dark:bg-stone-900">
                <h3 className="font-semibold">Messages automatiques, {data.days} derniers jours</h3>
                {active.length === 0 ? (
                  <p className="mt-1">Aucun envoi automatique sur la période.</p>
                ) : (
                  <ul className="mt-1 flex flex-col gap-1">
                    {active.map((v) => (
                      <VolumesLine key={v.kind} v={v} />
                    ))}
                  </ul>
                )}
              </div>
              {data.shops.length === 0 ? (
                <p>Aucune boutique n'a encore de chiffres de fidélisation.</p>
              ) : (
                <ul className="flex flex-col gap-2">
                  {data.shops.map((shop) => (
                    <li
                      key={shop.id}
                      data-testid="shop-retention"
                      className="rounded-2xl border border-stone-200 bg-white p-4 text-sm dark:border-stone-800 dark:bg-stone-900"
                    >
                      <p className="text-base font-semibold">{shop.name}</p>
                      <p className="text-stone-600 dark:text-stone-400">
                        {shop.city} · {plural(shop.customers, "client", "clients")}
                        {shop.status === "suspended" ? " · suspendue" : ""}
                      </p>
                      <p className="mt-1">
                        {shop.regulars === null
                          ? "Rythme pas encore mesuré."
                          : `${plural(shop.regulars, "régulier", "réguliers")}, ${plural(shop.atRisk ?? 0, "à risque", "à risque")}${
                              shop.medianDaysBetweenVisits === null
                                ? ""
                                : ` ; une visite tous les ${formatDecimal(shop.medianDaysBetweenVisits)} jours en général`
                            }.`}
                      </p>
                      {shop.automations.length === 0 ? (
                        <p className="mt-1 text-stone-600 dark:text-stone-400">Aucune automatisation.</p>
                      ) : (
                        <ul className="mt-1 flex flex-col gap-1">
                          {shop.automations.map((v) => (
                            <VolumesLine key={v.kind} v={v} state={v.enabled ? "activée" : "désactivée"} />
                          ))}
                        </ul>
                      )}
                    </li>
                  ))}
                </ul>
              )}
              <div className="flex flex-wrap items-center justify-between gap-3">
                <p className="text-sm text-stone-600 dark:text-stone-400">
                  {data.shops.length > 0
                    ? `Boutiques ${formatNumber(offset + 1)} à ${formatNumber(offset + data.shops.length)} sur ${formatNumber(data.total)}${data.totalIsCapped ? " et plus" : ""}.`
                    : ""}
                </p>
                <div className="flex gap-2">
                  {offset > 0 ? (
                    <Button variant="secondary" onClick={() => setOffset(Math.max(0, offset - PAGE))}>
                      Précédentes
                    </Button>
                  ) : null}
                  {offset + data.shops.length < data.total ? (
                    <Button variant="secondary" onClick={() => setOffset(offset + PAGE)}>
                      Suivantes
                    </Button>
                  ) : null}
                </div>
              </div>
            </>
          );
        }}
      </QueryState>
    </Section>
  );
}
