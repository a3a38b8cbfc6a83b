import { ButtonLink } from "../../../components/ui/button.tsx";
import { type ShopRedemption, useShopRedemptions } from "../api/list-shop-redemptions.ts";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { formatMoment, plural } from "../../../../domain/format.ts";

/* Recent redemptions ---------------------------------------------------------- */

const STATUS_TONES: Record<ShopRedemption["status"], string> = {
  pending: "bg-amber-100 text-amber-950 dark:bg-amber-950 dark:text-amber-100",
  validated: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  refused: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
  cancelled: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100",
  expired: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100",
};

export function RecentRedemptions({ shopId }: { shopId: string }) {
  const list = useShopRedemptions(shopId, "all", 20);
  const pending = list.data?.filter((r) => r.status === "pending").length ?? 0;
  return (
    <Section
      title="À valider / récentes"
      id="recentes"
      lead={
        pending > 0
          ? `${plural(pending, "récompense", "récompenses")} en attente au comptoir.`
          : "Les 20 dernières demandes de vos clients."
      }
      actions={
        <ButtonLink to="/admin/validate-reward" variant="secondary" className="!min-h-10 text-sm">
          Valider un code
        </ButtonLink>
      }
    >
      {list.isPending ? (
        <p className="text-sm text-stone-600 dark:text-stone-400" aria-busy="true">
          Chargement…
        </p>
      ) : list.isError ? (
        <LoadError error={list.error} onRetry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="text-sm text-stone-700 dark:text-stone-300">Aucune demande pour l'instant.</p>
      ) : (
        <ul className="divide-y divide-stone-100 dark:divide-stone-800">
          {list.data.map((r) => (
            <li key={r.id} className="flex items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="font-semibold break-words">{r.title}</p>
                <p className="text-sm text-stone-600 dark:text-stone-400">
                  {r.customer} · {r.costLabel} · {formatMoment(r.createdAt)}
                  {r.status === "pending" ? (
                    <>
                      {" "}
                      · code <span className="font-mono font-semibold">{r.code}</span>
                    </>
                  ) : null}
                </p>
                {r.decidedByName && r.status === "validated" ? (
                  <p className="text-xs text-stone-600 dark:text-stone-400">Validée par {r.decidedByName}</p>
                ) : null}
                {r.refuseReason ? (
                  <p className="text-xs text-stone-600 italic dark:text-stone-400">« {r.refuseReason} »</p>
                ) : null}
              </div>
              <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_TONES[r.status]}`}>
                {r.statusLabel}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
