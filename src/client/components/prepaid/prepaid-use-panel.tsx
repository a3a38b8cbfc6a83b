import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { prepaidAmountLabel } from "../../../domain/loyalty/prepaid.ts";
import { errorText } from "../../lib/api-client.ts";
import { randomKey } from "../../lib/random-key.ts";
import { Button } from "../ui/button.tsx";
import { Field } from "../ui/field.tsx";
import { Notice } from "../ui/notice.tsx";
import { HoldingHistory } from "./holding-history.tsx";
import { type CounterHolding, cancelPrepaidEntry, spendPrepaid } from "./prepaid-api.ts";

/** « 12,50 » or « 12.5 » euros → cents; null when it is not an amount. */
function centsOf(text: string): number | null {
  const m = /^\s*(\d{1,4})(?:[,.](\d{1,2}))?\s*(?:€)?\s*$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0"));
}

/**
 * The counter's view of a bundle or a gift card whose code the holder shows (the validation desk, ADR 0049): whose
 * it is, what is left, until when; then a unit or an amount used, checked live under the holding's lock.
 */
export function PrepaidUsePanel({
  shopId,
  holding: initial,
  onNext,
}: {
  shopId: string;
  holding: CounterHolding;
  onNext: () => void;
}) {
  const [holding, setHolding] = useState(initial);
  // The last use typed here, until it is cancelled (then `cancelled`).
  const [used, setUsed] = useState<{ amount: number; entryId: number; cancelled: boolean } | null>(null);
  const [amountError, setAmountError] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  // One key per intended use: a retried tap is the same use, never a second one.
  const key = useRef(randomKey());
  const use = useMutation({
    mutationFn: (amount: number) => spendPrepaid(shopId, { code: holding.code, amount, idempotencyKey: key.current }),
    onSuccess: (answer, amount) => {
      key.current = randomKey();
      cancel.reset();
      // The amount is spent: the field is cleared, so a second tap cannot spend it again by mistake.
      form.current?.reset();
      setUsed({ amount, entryId: answer.entryId, cancelled: false });
      setHolding(answer.holding);
    },
    onError: () => {
      key.current = randomKey();
    },
  });
  // A wrong amount given back at once, while the customer is there (a retry is the same cancel).
  const cancel = useMutation({
    mutationFn: (entryId: number) => cancelPrepaidEntry(shopId, entryId),
    onSuccess: (updated) => {
      setUsed((last) => (last ? { ...last, cancelled: true } : last));
      setHolding(updated);
    },
  });
  const isUnits = holding.kind === "units";
  const submitAmount = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const raw = String(new FormData(event.currentTarget).get("amount") ?? "");
    const amount = isUnits ? (/^\s*\d+\s*$/.test(raw) ? Number(raw) : null) : centsOf(raw);
    if (!amount)
      return setAmountError(isUnits ? "Saisissez un nombre d'unités (ex. 2)." : "Saisissez un montant (ex. 12,50).");
    setAmountError(null);
    use.mutate(amount);
  };
  return (
    <section
      aria-label="Carnet ou carte cadeau"
      className="flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800"
    >
      <h2 className="text-xl font-bold">{holding.title}</h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-stone-700 dark:text-stone-300">Titulaire</dt>
        <dd className="font-semibold">{holding.holder ?? "Pas encore récupérée"}</dd>
        <dt className="text-stone-700 dark:text-stone-300">Solde</dt>
        <dd className="font-semibold tabular-nums" data-testid="counter-prepaid-balance">
          {holding.balanceLabel}
        </dd>
        <dt className="text-stone-700 dark:text-stone-300">Valable</dt>
        <dd className={holding.isExpired ? "font-semibold text-red-800 dark:text-red-300" : ""}>
          {holding.isExpired ? `expiré depuis le ${holding.lastDay}` : `jusqu'au ${holding.lastDay} inclus`}
        </dd>
      </dl>
      <HoldingHistory history={holding.history} testId="counter-prepaid-history" />
      {used?.cancelled ? (
        <Notice tone="info">
          Débit de {prepaidAmountLabel(holding.kind, used.amount)} annulé. Il reste {holding.balanceLabel}.
        </Notice>
      ) : used ? (
        <div className="flex flex-col gap-2">
          <Notice tone="success">
            Débité : {prepaidAmountLabel(holding.kind, used.amount)}. Il reste {holding.balanceLabel}.
          </Notice>
          <Button variant="secondary" isLoading={cancel.isPending} onClick={() => cancel.mutate(used.entryId)}>
            Annuler ce débit
          </Button>
        </div>
      ) : null}
      {use.isError ? <Notice tone="error">{errorText(use.error)}</Notice> : null}
      {cancel.isError ? <Notice tone="error">{errorText(cancel.error)}</Notice> : null}
      {isUnits ? (
        <Button full isLoading={use.isPending} onClick={() => use.mutate(1)}>
          Débiter 1 unité
        </Button>
      ) : null}
      <form ref={form} onSubmit={submitAmount} className="flex flex-col gap-3" noValidate>
        <Field
          name="amount"
          label={isUnits ? "Autre nombre d'unités" : "Montant à débiter (€)"}
          inputMode={isUnits ? "numeric" : "decimal"}
          autoComplete="off"
          error={amountError ?? undefined}
        />
        <Button type="submit" variant={isUnits ? "secondary" : "primary"} isLoading={use.isPending}>
          Débiter
        </Button>
      </form>
      <Button variant="ghost" onClick={onNext}>
        Code suivant
      </Button>
    </section>
  );
}
