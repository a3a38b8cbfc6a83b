import { type CounterLot, LotHandOver, lookupLot } from "../../../components/contests/lot-hand-over.tsx";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useCallback, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Glyph, GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { useCurrentShop } from "../../../components/shop/current-shop.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { TextareaField } from "../../../components/ui/textarea-field.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import {
  type CounterRedemption,
  lookupRedemption,
  refuseRedemption,
  validateRedemption,
} from "../api/counter-redemption.ts";
import { rewardsKeys } from "../api/keys.ts";
import { GiftIcon } from "../components/gift-icon.tsx";
import { formatMinutesSeconds, minutesSecondsFr, useNow } from "../components/use-now.ts";
import { formatMoment } from "../../../../domain/format.ts";
import { CameraScan, CodeForm } from "../components/redemption-code-input.tsx";
import { useMutationFn } from "../../../lib/use-mutation-fn.ts";

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
function RedemptionPanel({
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
  const sendValidation = useMutationFn(validateRedemption);
  const sendRefusal = useMutationFn(refuseRedemption);
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<"idle" | "validating" | "refusing" | "sending-refusal">("idle");
  const [error, setError] = useState<string | null>(null);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const isPending = redemption.status === "pending";

  const settle = async (action: () => Promise<CounterRedemption>, outcome: "validated" | "refused") => {
    setError(null);
    try {
      const updated = await action();
      void queryClient.invalidateQueries({ queryKey: rewardsKeys.shop(shopId) });
      onChange(updated, outcome);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "Une erreur inattendue est survenue. Réessayez.");
      setMode(outcome === "refused" ? "refusing" : "idle");
      // Someone else may have settled it (or it expired): show what it is now.
      if (e instanceof ApiError && e.status === 409) {
        lookupRedemption(shopId, redemption.code)
          .then((r) => onChange(r, outcome))
          .catch(() => {});
      }
    }
  };

  const validate = () => {
    setMode("validating");
    void settle(() => sendValidation(shopId, redemption.id), "validated");
  };
  const refuse = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get("reason") ?? "").trim();
    if (reason.length < 3) return setReasonError("Motif : au moins 3 caractères.");
    if (reason.length > 200) return setReasonError("Motif : au plus 200 caractères.");
    setReasonError(null);
    setMode("sending-refusal");
    void settle(() => sendRefusal(shopId, redemption.id, reason), "refused");
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
        {error ? <Notice tone="error">{error}</Notice> : null}
        {!isPending ? (
          <Notice>
            {redemption.status === "validated"
              ? `Déjà validée${redemption.decidedByName ? ` par ${redemption.decidedByName}` : ""}${redemption.decidedAt ? ` ${formatMoment(redemption.decidedAt)}` : ""} : ne la remettez pas une seconde fois.`
              : redemption.status === "refused"
                ? `Refusée${redemption.refuseReason ? ` : ${redemption.refuseReason}` : ""}. Les points ont été rendus au client.`
                : redemption.status === "expired"
                  ? "Expirée : le client doit la redemander depuis son téléphone. Ses points lui ont été rendus."
                  : "Annulée par le client : rien à remettre."}
          </Notice>
        ) : mode === "refusing" || mode === "sending-refusal" ? (
          <form onSubmit={refuse} noValidate className="flex flex-col gap-3">
            <TextareaField
              label="Motif du refus (le client le lira)"
              name="reason"
              maxLength={200}
              placeholder="Produit indisponible aujourd'hui"
              hint="De 3 à 200 caractères. Les points sont rendus au client."
              error={reasonError ?? undefined}
              onChange={() => setReasonError(null)}
              className="[&_textarea]:min-h-24"
            />
            <div className="flex flex-col gap-2">
              <Button type="submit" variant="danger" full isLoading={mode === "sending-refusal"}>
                Confirmer le refus
              </Button>
              <Button variant="ghost" full onClick={() => setMode("idle")} disabled={mode === "sending-refusal"}>
                Retour
              </Button>
            </div>
          </form>
        ) : (
          <div className="grid grid-cols-[minmax(0,2fr)_minmax(0,1fr)] gap-2">
            <Button onClick={validate} isLoading={mode === "validating"} className="min-h-14 text-lg">
              <Glyph name="check" className="size-5" />
              Valider
            </Button>
            <Button
              variant="secondary"
              onClick={() => setMode("refusing")}
              disabled={mode === "validating"}
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

function Outcome({
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
          <span
            className="flex size-20 items-center justify-center rounded-full bg-white text-emerald-700"
            aria-hidden="true"
          >
            <Glyph name="check" className="size-12" />
          </span>
        ) : (
          <GlyphBadge name="alert" tone="danger" size="lg" />
        )}
        <h2 className="text-3xl font-black tracking-tight">{ok ? "Récompense validée" : "Récompense refusée"}</h2>
        <p className="text-lg">
          {ok
            ? `Remettez « ${redemption.title} » à ${redemption.customerFirstName}.`
            : `Refus envoyé à ${redemption.customerFirstName}${redemption.refuseReason ? ` : « ${redemption.refuseReason} »` : ""}. Ses points lui ont été rendus.`}
        </p>
      </div>
      <Button full onClick={onNext} className="min-h-14 text-lg">
        Valider une autre récompense
      </Button>
    </div>
  );
}

/**
 * /validate-reward (staff at the counter) and /admin/validate-reward (owner): scan the shopper's QR code or type
 * its 6 characters, check what it is, then Valider or Refuser. Works for the current shop.
 */
export default function ValidateRewardPage() {
  const current = useCurrentShop();
  const inputRef = useRef<HTMLInputElement>(null);
  const [found, setFound] = useState<CounterRedemption | null>(null);
  // A code that is not a redemption may be a lot won in a contest (components/contests/lot-hand-over.tsx).
  const [lot, setLot] = useState<CounterLot | null>(null);
  const [outcome, setOutcome] = useState<"validated" | "refused" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const shopId = current.shopId;
  const navigate = useNavigate();
  /** A personal code goes to the counter's « Créditer un passage », filled in. */
  const creditPersonalCode = (code: string) =>
    navigate(`/manager?boutique=${encodeURIComponent(shopId ?? "")}&client=${encodeURIComponent(code)}`);

  const lookup = useCallback(
    async (code: string) => {
      if (!shopId) return;
      setBusy(true);
      setError(null);
      try {
        setFound(await lookupRedemption(shopId, code));
        setOutcome(null);
      } catch (e) {
        const lotFailure: { error?: unknown } = {};
        const asLot =
          e instanceof ApiError && e.status === 404
            ? await lookupLot(shopId, code).catch((error: unknown) => {
                lotFailure.error = error;
                return null;
              })
            : null;
        if (asLot) return setLot(asLot);
        // Too many wrong lot codes: say so and how long to wait, not "not found" (issue 22 row 9).
        const shown = lotFailure.error instanceof ApiError && lotFailure.error.status === 429 ? lotFailure.error : e;
        setError(shown instanceof ApiError ? shown.message : "Une erreur inattendue est survenue. Réessayez.");
      } finally {
        setBusy(false);
      }
    },
    [shopId],
  );

  const next = () => {
    setLot(null);
    setFound(null);
    setOutcome(null);
    setError(null);
    window.setTimeout(() => inputRef.current?.focus(), 0);
  };

  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-5 px-5 pb-10 pt-5">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Valider une récompense</h1>
        <p className="mt-1 text-stone-700 dark:text-stone-300">
          Scannez le QR code affiché sur le téléphone du client, ou tapez son code. Vérifiez que l'écran bouge : une
          capture d'écran ne compte pas.
        </p>
      </div>
      {current.shops.length > 1 ? (
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Boutique
          <select
            value={shopId ?? ""}
            onChange={(e) => {
              current.select(e.target.value);
              next();
            }}
            className="min-h-12 rounded-xl border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
          >
            {current.shops.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      ) : current.shop ? (
        <p className="-mt-2 text-sm font-semibold text-brand-800 dark:text-brand-200">{current.shop.name}</p>
      ) : null}

      {current.isLoading ? (
        <p aria-busy="true">Chargement…</p>
      ) : !shopId ? (
        <Notice tone="error">
          Aucune boutique n'est liée à votre compte : cette page sert au personnel d'une boutique.
        </Notice>
      ) : lot ? (
        <LotHandOver shopId={shopId} lot={lot} onNext={next} />
      ) : found && outcome && found.status !== "pending" ? (
        <Outcome redemption={found} outcome={outcome} onNext={next} />
      ) : found ? (
        <>
          <RedemptionPanel
            shopId={shopId}
            redemption={found}
            onChange={(r, o) => {
              setFound(r);
              setOutcome(r.status === o ? o : null);
            }}
            onNext={next}
          />
          {found.status === "pending" ? (
            <Button variant="ghost" onClick={next}>
              Ce n'est pas le bon code
            </Button>
          ) : null}
        </>
      ) : (
        <>
          <section
            aria-label="Scanner"
            className="flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800"
          >
            <CameraScan onCode={(code) => void lookup(code)} onPersonalCode={creditPersonalCode} />
          </section>
          <section
            aria-label="Saisir le code"
            className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800"
          >
            {error ? (
              <div className="mb-3">
                <Notice tone="error">{error}</Notice>
              </div>
            ) : null}
            <CodeForm
              onCode={(code) => void lookup(code)}
              onPersonalCode={creditPersonalCode}
              busy={busy}
              inputRef={inputRef}
            />
          </section>
        </>
      )}
    </div>
  );
}
