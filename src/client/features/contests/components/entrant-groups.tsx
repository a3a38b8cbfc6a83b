import { formatDateTime, formatNumber, plural } from "../../../../domain/format.ts";
import { useEntrantGroups } from "../api/entrant-groups.ts";
import { LoadError } from "../../../components/errors/load-error.tsx";

/**
 * The owner's view before the draw (issue 22 row 3): groups of accounts presumed to be one person, and whose
 * entries the draw keeps. The rule is the règlement's and applies by itself: nothing to choose here.
 */
export function EntrantGroups({ shopId, contestId }: { shopId: string; contestId: string }) {
  const groups = useEntrantGroups(shopId, contestId);
  if (groups.isPending) return <p aria-busy="true">Chargement des participations…</p>;
  if (groups.error) return <LoadError error={groups.error} />;
  const g = groups.data;
  return (
    <details className="text-sm" data-testid="entrant-groups">
      <summary className="min-h-11 cursor-pointer py-2 font-semibold">
        {plural(g.entries, "participation", "participations")}
        {g.groups.length > 0
          ? ` · ${plural(g.groups.length, "groupe suspect", "groupes suspects")} · ${plural(g.excludedEntries, "participation écartée", "participations écartées")}`
          : " · aucun groupe suspect"}
      </summary>
      <p className="text-stone-700 dark:text-stone-300">
        Les comptes qui partagent un appareil, un réseau internet ou un numéro de mobile comptent pour une seule
        personne : seules les participations du premier inscrit du groupe vont au tirage (article 3 du règlement).
      </p>
      <ul className="mt-2 flex flex-col gap-3">
        {g.groups.map((group, i) => (
          <li
            key={group.accounts[0]?.participantId}
            className="rounded-lg border border-stone-200 p-3 dark:border-stone-800"
          >
            <p className="font-semibold">
              Groupe {formatNumber(i + 1)} : {group.reasons.join(", ")}
            </p>
            <ul>
              {group.accounts.map((a) => (
                <li key={a.participantId}>
                  {a.name} — inscrit le {formatDateTime(a.firstEntryAt)} —{" "}
                  <strong>{a.counted ? "compte au tirage" : "écarté"}</strong>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </details>
  );
}
