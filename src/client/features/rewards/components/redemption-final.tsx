import { formatMoment } from "../../../../domain/format.ts";
import { GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { ButtonLink } from "../../../components/ui/button.tsx";
import type { Redemption } from "../api/get-redemption.ts";
import { ValidatedMark } from "./validated-mark.tsx";

/** A redemption once settled (/validation-recompense/{id}): validated, refused, expired or cancelled, the new balance. */

export const FINAL: Record<
  Exclude<Redemption["status"], "pending">,
  { title: string; tone: string; badge: "check" | "alert" | "clock" }
> = {
  validated: { title: "Récompense validée", tone: "bg-emerald-700 text-white", badge: "check" },
  refused: {
    title: "Récompense refusée",
    tone: "bg-white text-stone-900 ring-1 ring-red-200 dark:bg-stone-900 dark:text-stone-100 dark:ring-red-900",
    badge: "alert",
  },
  expired: {
    title: "Récompense expirée",
    tone: "bg-white text-stone-900 ring-1 ring-stone-200 dark:bg-stone-900 dark:text-stone-100 dark:ring-stone-800",
    badge: "clock",
  },
  cancelled: {
    title: "Récompense annulée",
    tone: "bg-white text-stone-900 ring-1 ring-stone-200 dark:bg-stone-900 dark:text-stone-100 dark:ring-stone-800",
    badge: "alert",
  },
};

export function FinalView({
  redemption,
}: {
  redemption: Redemption & { status: Exclude<Redemption["status"], "pending"> };
}) {
  const look = FINAL[redemption.status];
  const isValidated = redemption.status === "validated";
  const refunded = redemption.cost > 0 && !isValidated;
  return (
    <div className="flex flex-col gap-5">
      <div
        className={`flex flex-col items-center gap-3 rounded-3xl px-6 py-8 text-center shadow-sm ${look.tone}`}
        data-testid="redemption-final"
        data-status={redemption.status}
      >
        {isValidated ? (
          <ValidatedMark />
        ) : (
          <GlyphBadge name={look.badge} tone={redemption.status === "refused" ? "danger" : "warning"} size="lg" />
        )}
        <h1 className="text-3xl font-black tracking-tight">{look.title}</h1>
        <p className="text-lg font-semibold">{redemption.title}</p>
        <p className={isValidated ? "text-emerald-50" : "text-stone-700 dark:text-stone-300"}>
          {redemption.shop.name}
          {redemption.decidedAt ? ` · ${formatMoment(redemption.decidedAt)}` : ""}
        </p>
        {isValidated ? <p className="text-lg">Profitez-en bien !</p> : null}
        {redemption.status === "refused" && redemption.refuseReason ? (
          <p className="rounded-xl bg-red-50 px-4 py-2 text-red-950 dark:bg-red-950 dark:text-red-100">
            Motif : {redemption.refuseReason}
          </p>
        ) : null}
        {redemption.status === "expired" ? <p>Le code n'a pas été validé à temps.</p> : null}
        {refunded ? <p className="font-semibold">Vos {redemption.costLabel} vous ont été rendus.</p> : null}
        <p
          className={`mt-1 rounded-2xl px-4 py-2 ${isValidated ? "bg-emerald-900" : "bg-stone-100 dark:bg-stone-800"}`}
        >
          Nouveau solde : <strong className="tabular-nums">{redemption.balanceLabel}</strong>
        </p>
      </div>
      <div className="grid grid-cols-1 gap-3">
        {isValidated ? null : redemption.source === "reward" ? (
          <ButtonLink to={`/reward/${redemption.reward.slug}`} full>
            Revoir la récompense
          </ButtonLink>
        ) : (
          <ButtonLink to="/vip" full>
            Mes cadeaux VIP
          </ButtonLink>
        )}
        <ButtonLink to="/cartes-de-fidelite" variant={isValidated ? "primary" : "secondary"} full>
          Mes cartes
        </ButtonLink>
        <ButtonLink to={`/shop/${redemption.shop.slug}`} variant="secondary" full>
          Retour à la boutique
        </ButtonLink>
      </div>
    </div>
  );
}
