import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { formatMoment } from "../../../../domain/format.ts";
import { Glyph, GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { TextareaField } from "../../../components/ui/textarea-field.tsx";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import {
  type CounterRedemption,
  lookupRedemption,
  refuseRedemption,
  validateRedemption,
} from "../api/counter-redemption.ts";
import { rewardsKeys } from "../api/keys.ts";
import { GiftIcon } from "./gift-icon.tsx";
import { ValidatedMark } from "./validated-mark.tsx";
import { formatMinutesSeconds, minutesSecondsFr, useNow } from "./use-now.ts";

/* The counter's view of one redemption (/validate-reward): what to hand over, Valider or Refuser, the outcome. */

const STATUS_TONES: Record<CounterRedemption["status"], string> = {
  pending: "bg-amber-100 text-amber-950 dark:bg-amber-950 dark:text-amber-100",
  validated: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  refused: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
  cancelled: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100",
  expired: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100",
};

function TimeLeft({ expiresAt }: { expiresAt: string }) {
  const now = useNow(1000);
  const left = Date.parse(expiresAt) - now;
  if (left <= 0) return <span className="font-semibold text-red-800 dark:text-red-300">Temps écoulé</span>;
  return (
    <span>
      <span className="font-mono font-bold tabular-nums" aria-hidden="true">
        {formatMinutesSeconds(left)}
      </span>
      <span className="sr-only">{minutesSecondsFr(left)}</span>
    </span>
  );
}

/** The redemption a code names: what to hand over, to whom, its status, and Valider / Refuser while pending. */
export function RedemptionPanel({
  shopId,
  redemption,
  onChange,
  onNext,
}: {
  shopId: string;
  redemption: CounterRedemption;
  onChange: (r: CounterRedemption, outcome: "validated" | "refused") => void;
  onNext: () => void;
}) {
  const queryClient = useQueryClient();
  const [refusing, setRefusing] = useState(false);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const isPending = redemption.status === "pending";
  const settled = (outcome: "validated" | "refused") => ({
    onSuccess: (updated: CounterRedemption) => {
      void queryClient.invalidateQueries({ queryKey: rewardsKeys.shop(shopId) });
      onChange(updated, outcome);
    },
    onError: (e: Error) => {
      // Someone else may have settled it (or it expired): show what it is now.
      if (e instanceof ApiError && e.status === 409) {
        lookupRedemption(shopId, redemption.code)
          .then((r) => onChange(r, outcome))
          .catch(() => {});
      }
    },
  });
  const validate = useMutation({
    mutationFn: () => validateRedemption(shopId, redemption.id),
    ...settled("validated"),
  });
  const refuse = useMutation({
    mutationFn: (reason: string) => refuseRedemption(shopId, redemption.id, reason),
    ...settled("refused"),
  });
  const error = validate.error ?? refuse.error;

  const sendRefusal = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get("reason") ?? "").trim();
    if (reason.length < 3) return setReasonError("Motif : au moins 3 caractères.");
    if (reason.length > 200) return setReasonError("Motif : au plus 200 caractères.");
    setReasonError(null);
    validate.reset();
    refuse.mutate(reason);
  };

  return (
    <section
      aria-label="Récompense à valider"
      className="overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800"
    >
      <div className="flex items-center gap-4 p-5">
        {redemption.photoUrl ? (
          <img src={redemption.photoUrl} alt="" className="size-20 shrink-0 rounded-2xl object-cover" />
        ) : (
          <span className="flex size-20 shrink-0 items-center justify-center rounded-2xl bg-brand-50 text-brand-800 dark:bg-stone-800 dark:text-brand-200">
            <GiftIcon className="size-10" />
          </span>
        )}
        <div className="min-w-0">
          <h2 className="text-xl font-bold leading-tight break-words">{redemption.title}</h2>
          <p className="mt-1">
            <span className="rounded-full bg-accent-400 px-2.5 py-0.5 text-sm font-bold text-stone-950">
              {redemption.costLabel}
            </span>
          </p>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-px border-y border-stone-200 bg-stone-200 text-sm dark:border-stone-800 dark:bg-stone-800">
        <div className="bg-white p-3 dark:bg-stone-900">
          <dt className="text-stone-600 dark:text-stone-400">Client</dt>
          <dd className="text-lg font-semibold">{redemption.customerFirstName}</dd>
        </div>
        <div className="bg-white p-3 dark:bg-stone-900">
          <dt className="text-stone-600 dark:text-stone-400">Code</dt>
          <dd className="font-mono text-lg font-bold tracking-widest">{redemption.code}</dd>
        </div>
        <div className="bg-white p-3 dark:bg-stone-900">
          <dt className="text-stone-600 dark:text-stone-400">Statut</dt>
          <dd>
            <span
              className={`mt-0.5 inline-block rounded-full px-2.5 py-0.5 font-semibold ${STATUS_TONES[redemption.status]}`}
              data-testid="counter-status"
            >
              {redemption.statusLabel}
            </span>
          </dd>
        </div>
        <div className="bg-white p-3 dark:bg-stone-900">
          <dt className="text-stone-600 dark:text-stone-400">{isPending ? "Temps restant" : "Décidée"}</dt>
          <dd className="text-lg">
            {isPending ? (
              <TimeLeft expiresAt={redemption.expiresAt} />
            ) : redemption.decidedAt ? (
              formatMoment(redemption.decidedAt)
            ) : (
              "—"
            )}
          </dd>
        </div>
      </dl>
      <div className="flex flex-col gap-3 p-5">
        {error ? <Notice tone="error">{errorText(error)}</Notice> : null}
        {!isPending ? (
          <Notice>
            {redemption.status === "validated"
              ? `Déjà validée${redemption.decidedByName ? ` par ${redemption.decidedByName}` : ""}${redemption.decidedAt ? ` ${formatMoment(redemption.decidedAt)}` : ""} : ne la remettez pas une seconde fois.`
              : redemption.status === "refused"
                ? `Refusée${redemption.refuseReason ? ` : ${redemption.refuseReason}` : ""}. Son solde a été rendu au client.`
                : redemption.status === "expired"
                  ? "Expirée : le client doit la redemander depuis son téléphone. Son solde lui a été rendu."
                  : "Annulée par le client : rien à remettre."}
          </Notice>
        ) : refusing ? (
          <form onSubmit={sendRefusal} noValidate className="flex flex-col gap-3">
            <TextareaField
              label="Motif du refus (le client le lira)"
              name="reason"
              maxLength={200}
              placeholder="Produit indisponible aujourd'hui"
              hint="De 3 à 200 caractères. Le solde est rendu au client."
              error={reasonError ?? undefined}
              onChange={() => setReasonError(null)}
              className="[&_textarea]:min-h-24"
            />
            <div className="flex flex-col gap-2">
              <Button type="submit" variant="danger" full isLoading={refuse.isPending}>
                Confirmer le refus
              </Button>
              <Button variant="ghost" full onClick={() => setRefusing(false)} disabled={refuse.isPending}>
                Retour
              </Button>
            </div>
          </form>
        ) : (
          <div className="grid grid-cols-[minmax(0,2fr)_minmax(0,1fr)] gap-2">
            <Button
              onClick={() => {
                refuse.reset();
                validate.mutate();
              }}
              isLoading={validate.isPending}
              className="min-h-14 text-lg"
            >
              <Glyph name="check" className="size-5" />
              Valider
            </Button>
            <Button
              variant="secondary"
              onClick={() => setRefusing(true)}
              disabled={validate.isPending}
              className="min-h-14"
            >
              Refuser
            </Button>
          </div>
        )}
        {!isPending ? (
          <Button variant="secondary" full onClick={onNext}>
            Valider une autre récompense
          </Button>
        ) : null}
      </div>
    </section>
  );
}

export function Outcome({
  redemption,
  outcome,
  onNext,
}: {
  redemption: CounterRedemption;
  outcome: "validated" | "refused";
  onNext: () => void;
}) {
  const ok = outcome === "validated" && redemption.status === "validated";
  return (
    <div className="flex flex-col gap-4">
      <div
        role="status"
        className={`flex flex-col items-center gap-3 rounded-3xl px-6 py-8 text-center shadow-sm ${ok ? "bg-emerald-700 text-white" : "bg-white ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800"}`}
        data-testid="counter-outcome"
      >
        {ok ? (
          <ValidatedMark />
        ) : (
          <GlyphBadge name="alert" tone="danger" size="lg" />
        )}
        <h2 className="text-3xl font-black tracking-tight">{ok ? "Récompense validée" : "Récompense refusée"}</h2>
        <p className="text-lg">
          {ok
            ? `Remettez « ${redemption.title} » à ${redemption.customerFirstName}.`
            : `Refus envoyé à ${redemption.customerFirstName}${redemption.refuseReason ? ` : « ${redemption.refuseReason} »` : ""}. Son solde lui a été rendu.`}
        </p>
      </div>
      <Button full onClick={onNext} className="min-h-14 text-lg">
        Valider une autre récompense
      </Button>
    </div>
  );
}
