import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { parseClaimCode } from "../../../../domain/loyalty/prepaid.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useClaim } from "../api/claim.ts";

/**
 * /recuperer (signed in): a gift card's code from its e-mail (the link fills it in and claims it at once), or the
 * code a shop handed over with an imported balance (ADR 0049). Signed out, the guard sends to /login and back here.
 */
export default function ClaimPage() {
  const [params] = useSearchParams();
  const fromLink = parseClaimCode(params.get("code") ?? "");
  const claim = useClaim();
  const [error, setError] = useState<string | null>(null);
  const tried = useRef(false);
  useEffect(() => {
    if (fromLink && !tried.current) {
      tried.current = true;
      claim.mutate(fromLink);
    }
  }, [fromLink, claim]);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = parseClaimCode(String(new FormData(event.currentTarget).get("code") ?? ""));
    if (!code) return setError("Ce code n'a pas le bon format : 12 lettres et chiffres.");
    setError(null);
    claim.mutate(code);
  };
  const done = claim.data;
  return (
    <div className="mx-auto flex max-w-md flex-col gap-5 px-5 pb-10 pt-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Récupérer un code</h1>
        <p className="mt-1 text-stone-700 dark:text-stone-300">
          Une carte cadeau reçue par e-mail, ou le solde de votre ancienne carte remis par une boutique.
        </p>
      </div>
      {done ? (
        <>
          <Notice tone="success">
            {done.holding
              ? `« ${done.holding.title} » (${done.holding.balanceLabel}) est à vous chez ${done.shop?.name ?? "la boutique"}, valable jusqu'au ${done.holding.lastDay} inclus.`
              : `Votre solde est repris chez ${done.shop?.name ?? "la boutique"}.`}
            {done.holding && done.points > 0 ? ` Votre carte de fidélité est créditée aussi.` : ""}
          </Notice>
          <Link to="/cartes-de-fidelite" className="font-semibold text-brand-800 underline dark:text-brand-200">
            Voir mes cartes
          </Link>
        </>
      ) : (
        <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
          {claim.isError ? <Notice tone="error">{errorText(claim.error)}</Notice> : null}
          <Field
            label="Code (12 caractères)"
            name="code"
            autoComplete="off"
            autoCapitalize="characters"
            placeholder="ABCD-EFGH-JKMN"
            defaultValue={fromLink ?? ""}
            error={error ?? undefined}
          />
          <Button type="submit" full isLoading={claim.isPending}>
            Récupérer
          </Button>
        </form>
      )}
    </div>
  );
}
