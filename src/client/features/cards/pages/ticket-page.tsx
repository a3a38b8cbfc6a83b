import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { formatAmount } from "../../../../domain/format.ts";
import { formatCents } from "../../../../domain/loyalty/amount.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import { deviceId } from "../../../lib/device-id.ts";
import { useMe } from "../../../lib/me.ts";
import { randomKey } from "../../../lib/random-key.ts";
import { SCAN_KEYS } from "../api/keys.ts";
import { postReceipt } from "../api/post-receipt.ts";

type Answer = Awaited<ReturnType<typeof postReceipt>>;

/** One key per receipt code, kept until the server answers: a reload or the detour through sign-in credits once. */
function attemptKey(code: string): string {
  const name = `fidele:receipt-attempt:${code}`;
  try {
    const existing = sessionStorage.getItem(name);
    if (existing) return existing;
    const key = randomKey();
    sessionStorage.setItem(name, key);
    return key;
  } catch {
    return randomKey();
  }
}

/**
 * /ticket?c=… — what the QR code printed on a receipt opens (ADR 0053): signed in, the receipt's amount is credited
 * once under the card's rules; signed out, the person signs in first and comes back here.
 */
export default function TicketPage() {
  const [params] = useSearchParams();
  const code = params.get("c") ?? "";
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useMe();
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const here = location.pathname + location.search;

  const send = useCallback(async () => {
    setError(null);
    try {
      const result = await postReceipt({ code, deviceId: deviceId() ?? undefined, idempotencyKey: attemptKey(code) });
      for (const key of SCAN_KEYS) void queryClient.invalidateQueries({ queryKey: [...key] });
      setAnswer(result);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) {
        navigate(`/scanner-auth?redirect=${encodeURIComponent(here)}`, { replace: true });
        return;
      }
      setError(errorText(e));
    }
  }, [code, here, navigate, queryClient]);

  const started = useRef(false);
  useEffect(() => {
    if (!code || me.isPending || started.current) return;
    started.current = true;
    if (!me.data) navigate(`/scanner-auth?redirect=${encodeURIComponent(here)}`, { replace: true });
    else void send();
  }, [code, me.isPending, me.data, here, navigate, send]);

  return (
    <div className="mx-auto flex max-w-md flex-col gap-5 px-5 pb-10 pt-8">
      <h1 className="text-2xl font-bold tracking-tight">
        {answer ? (answer.accepted ? "Points ajoutés" : "Ticket non crédité") : "Points de votre ticket"}
      </h1>
      {!code ? (
        <Notice tone="error">
          Ce lien ne contient pas de code de ticket : scannez le QR code imprimé sur votre ticket.
        </Notice>
      ) : null}
      {answer ? (
        <>
          <Notice tone={answer.accepted ? "success" : "info"}>{answer.message}</Notice>
          {answer.amountCents !== null ? (
            <p className="text-stone-700 dark:text-stone-300">Montant du ticket : {formatCents(answer.amountCents)}</p>
          ) : null}
          {answer.card && answer.shop ? (
            <p className="text-stone-700 dark:text-stone-300">
              Votre solde chez {answer.shop.name} : {formatAmount(answer.card.mode, answer.card.balance)}.{" "}
              <Link
                to={`/shop/${answer.shop.slug}`}
                className="font-semibold text-brand-800 underline dark:text-brand-200"
              >
                Voir la boutique
              </Link>
            </p>
          ) : null}
        </>
      ) : code && !error ? (
        <p className="text-stone-700 dark:text-stone-300" aria-live="polite">
          Validation de votre ticket…
        </p>
      ) : null}
      {error ? (
        <>
          <Notice tone="error">{error}</Notice>
          <Button full onClick={() => void send()}>
            Réessayer
          </Button>
        </>
      ) : null}
    </div>
  );
}
