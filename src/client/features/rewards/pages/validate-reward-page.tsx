import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { type CounterLot, LotHandOver, lookupLot } from "../../../components/contests/lot-hand-over.tsx";
import { type CounterHolding, lookupPrepaid } from "../../../components/prepaid/prepaid-api.ts";
import { PrepaidUsePanel } from "../../../components/prepaid/prepaid-use-panel.tsx";
import { useCurrentShop } from "../../../components/shop/current-shop.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import { type CounterRedemption, lookupRedemption } from "../api/counter-redemption.ts";
import { Outcome, RedemptionPanel } from "../components/counter-redemption.tsx";
import { CameraScan, CodeForm } from "../components/redemption-code-input.tsx";

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
  // A 7-character code is a bundle or a gift card to use (components/prepaid, ADR 0049).
  const [holding, setHolding] = useState<CounterHolding | null>(null);
  const [outcome, setOutcome] = useState<"validated" | "refused" | null>(null);
  const shopId = current.shopId;
  const navigate = useNavigate();
  /** A personal code goes to the counter's « Créditer un passage », filled in. */
  const creditPersonalCode = (code: string) =>
    navigate(`/manager?boutique=${encodeURIComponent(shopId ?? "")}&client=${encodeURIComponent(code)}`);

  const lookup = useMutation({
    mutationFn: async (code: string): Promise<{ redemption: CounterRedemption } | { lot: CounterLot }> => {
      if (!shopId) throw new Error("no shop");
      try {
        return { redemption: await lookupRedemption(shopId, code) };
      } catch (e) {
        if (!(e instanceof ApiError && e.status === 404)) throw e;
        try {
          return { lot: await lookupLot(shopId, code) };
        } catch (lotError) {
          // Too many wrong lot codes: say so and how long to wait, not "not found" (issue 22 row 9).
          throw lotError instanceof ApiError && lotError.status === 429 ? lotError : e;
        }
      }
    },
    onSuccess: (found) => {
      if ("lot" in found) return setLot(found.lot);
      setFound(found.redemption);
      setOutcome(null);
    },
  });

  const prepaidLookup = useMutation({
    mutationFn: (code: string) => {
      if (!shopId) throw new Error("no shop");
      return lookupPrepaid(shopId, code);
    },
    onSuccess: setHolding,
  });

  const next = () => {
    setHolding(null);
    prepaidLookup.reset();
    setLot(null);
    setFound(null);
    setOutcome(null);
    lookup.reset();
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
      ) : holding ? (
        <PrepaidUsePanel key={holding.id} shopId={shopId} holding={holding} onNext={next} />
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
            <CameraScan
              onCode={(code) => lookup.mutate(code)}
              onPersonalCode={creditPersonalCode}
              onPrepaidCode={(code) => prepaidLookup.mutate(code)}
            />
          </section>
          <section
            aria-label="Saisir le code"
            className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800"
          >
            {lookup.isError || prepaidLookup.isError ? (
              <div className="mb-3">
                <Notice tone="error">{errorText(lookup.error ?? prepaidLookup.error)}</Notice>
              </div>
            ) : null}
            <CodeForm
              onCode={(code) => lookup.mutate(code)}
              onPersonalCode={creditPersonalCode}
              onPrepaidCode={(code) => prepaidLookup.mutate(code)}
              busy={lookup.isPending || prepaidLookup.isPending}
              inputRef={inputRef}
            />
          </section>
        </>
      )}
    </div>
  );
}
