import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link, useParams } from "react-router";
import { GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import { cancelRedemption } from "../api/cancel-redemption.ts";
import {
  type Redemption,
  type RedemptionLiveState,
  redemptionEventsUrl,
  redemptionQueryOptions,
  withLocalDeadline,
} from "../api/get-redemption.ts";
import { BALANCE_KEYS, rewardsKeys } from "../api/keys.ts";
import { FINAL, FinalView } from "../components/redemption-final.tsx";
import { LiveSeal } from "../components/live-seal.tsx";
import { QrImage } from "../../../components/qr/qr-image.tsx";
import { formatMinutesSeconds, minutesSecondsFr, useNow } from "../components/use-now.ts";

/**
 * Follows a pending redemption live: server-sent events (event "state") from GET /api/redemptions/:id/events, each
 * merged into the query's data. When the stream fails, GET every 2 s until it comes back (the browser reconnects
 * by itself) or the redemption is settled. The stream is closed as soon as the status is final.
 */
function useLiveRedemption(id: string) {
  const queryClient = useQueryClient();
  const [isPolling, setPolling] = useState(false);
  const query = useQuery({
    ...redemptionQueryOptions(id),
    refetchInterval: (q) => (isPolling && q.state.data?.status === "pending" ? 2000 : false),
    refetchIntervalInBackground: true,
  });
  const isPending = query.data?.status === "pending";

  useEffect(() => {
    if (!isPending) return;
    if (typeof EventSource === "undefined") {
      setPolling(true);
      return;
    }
    const source = new EventSource(redemptionEventsUrl(id));
    source.addEventListener("state", (event) => {
      let state: RedemptionLiveState;
      try {
        state = JSON.parse((event as MessageEvent<string>).data) as RedemptionLiveState;
      } catch {
        return;
      }
      setPolling(false);
      queryClient.setQueryData<Redemption>(rewardsKeys.redemption(id), (old) =>
        old ? withLocalDeadline({ ...old, ...state }) : old,
      );
      if (state.status !== "pending") source.close();
    });
    source.addEventListener("error", () => setPolling(true));
    return () => source.close();
  }, [id, isPending, queryClient]);

  // Once settled, the balance has moved: my cards, the shop pages and the reward pages are out of date.
  const status = query.data?.status;
  useEffect(() => {
    if (status && status !== "pending") {
      for (const k of BALANCE_KEYS) void queryClient.invalidateQueries({ queryKey: [...k] });
    }
  }, [status, queryClient]);

  return query;
}

function CodeLetters({ code }: { code: string }) {
  return (
    <div className="flex flex-col items-center gap-1">
      <p className="text-sm font-medium text-stone-600 dark:text-stone-400">Code à dicter si le scan ne marche pas</p>
      <p
        className="font-mono text-5xl font-black tracking-[0.2em] text-stone-950 dark:text-white"
        data-testid="redemption-code"
      >
        <span aria-hidden="true">{code}</span>
        <span className="sr-only">{code.split("").join(" ")}</span>
      </p>
    </div>
  );
}

function Countdown({ expiresAt, onExpired }: { expiresAt: string; onExpired: () => void }) {
  const now = useNow(1000);
  const left = Date.parse(expiresAt) - now;
  const fired = useRef(false);
  useEffect(() => {
    if (left <= 0 && !fired.current) {
      fired.current = true;
      onExpired();
    }
  }, [left, onExpired]);
  const urgent = left < 60_000;
  return (
    <p
      className={`text-center text-base ${urgent ? "font-semibold text-red-800 dark:text-red-300" : "text-stone-700 dark:text-stone-300"}`}
    >
      {left > 0 ? (
        <>
          Expire dans{" "}
          <span className="font-mono text-xl font-bold tabular-nums" aria-hidden="true">
            {formatMinutesSeconds(left)}
          </span>
          <span className="sr-only">{minutesSecondsFr(left)}</span>
        </>
      ) : (
        "Temps écoulé : vérification…"
      )}
    </p>
  );
}

/** Asks before cancelling; the points come back at once. */
function CancelButton({ redemption, onCancelled }: { redemption: Redemption; onCancelled: (r: Redemption) => void }) {
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation({ mutationFn: () => cancelRedemption(redemption.id), onSuccess: onCancelled });
  if (!confirming) {
    return (
      <Button variant="secondary" full onClick={() => setConfirming(true)}>
        Annuler
      </Button>
    );
  }
  return (
    <div
      className="rounded-2xl border border-red-200 bg-red-50 p-4 text-red-950 dark:border-red-900 dark:bg-red-950 dark:text-red-100"
      role="group"
      aria-label="Confirmer l'annulation"
    >
      <p className="font-semibold">Annuler « {redemption.title} » ?</p>
      <p className="mt-1 text-sm">
        {redemption.cost > 0
          ? `Vos ${redemption.costLabel} vous sont rendus tout de suite.`
          : "Vous pourrez redemander ce cadeau plus tard."}
      </p>
      {cancel.isError ? (
        <div className="mt-3">
          <Notice tone="error">{errorText(cancel.error, "L'annulation a échoué. Réessayez.")}</Notice>
        </div>
      ) : null}
      <div className="mt-3 grid grid-cols-2 gap-2">
        {/* Still busy once cancelled: the page is about to show the cancellation. */}
        <Button variant="danger" onClick={() => cancel.mutate()} isLoading={cancel.isPending || cancel.isSuccess}>
          Oui, annuler
        </Button>
        <Button variant="secondary" onClick={() => setConfirming(false)}>
          Garder
        </Button>
      </div>
    </div>
  );
}

/** Keeps the phone's screen on while the code is shown (Screen Wake Lock API, where there is one). */
function useWakeLock(active: boolean) {
  useEffect(() => {
    if (!active || !("wakeLock" in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    let released = false;
    navigator.wakeLock
      .request("screen")
      .then((l) => {
        if (released) void l.release().catch(() => {});
        else lock = l;
      })
      .catch(() => {});
    return () => {
      released = true;
      void lock?.release().catch(() => {});
    };
  }, [active]);
}

function PendingView({
  redemption,
  onExpired,
  onCancelled,
}: {
  redemption: Redemption;
  onExpired: () => void;
  onCancelled: (r: Redemption) => void;
}) {
  useWakeLock(true);
  return (
    <div className="flex flex-col gap-5">
      <div className="text-center">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-800 dark:text-brand-200">
          {redemption.shop.name}
        </p>
        <h1 className="mt-1 text-2xl font-bold leading-tight tracking-tight">{redemption.title}</h1>
        <p className="mt-1 text-stone-700 dark:text-stone-300">
          {redemption.reservedLabel} · montrez cet écran au comptoir
        </p>
      </div>
      <LiveSeal>
        <QrImage
          text={redemption.qr}
          label={`QR code de la récompense « ${redemption.title} » à faire scanner au comptoir`}
        />
      </LiveSeal>
      <CodeLetters code={redemption.code} />
      <Countdown expiresAt={redemption.expiresAt} onExpired={onExpired} />
      <p className="text-center text-sm text-stone-600 dark:text-stone-400" role="status">
        En attente de validation par la boutique… Cet écran change tout seul.
      </p>
      <CancelButton redemption={redemption} onCancelled={onCancelled} />
    </div>
  );
}

/**
 * /validation-recompense/{id}: the code to show at the counter (QR + 6 letters), live so a screenshot cannot pass
 * for it, with the time left and "Annuler". Turns at once to validated, refused, expired or cancelled.
 */
export default function RedemptionPage() {
  const { id = "" } = useParams();
  const queryClient = useQueryClient();
  const query = useLiveRedemption(id);
  const key = rewardsKeys.redemption(id);

  let body: ReactNode;
  if (query.isPending) {
    body = (
      <div className="flex flex-col items-center gap-4 py-16" aria-busy="true">
        <span
          className="size-10 animate-spin rounded-full border-4 border-brand-700 border-t-transparent"
          aria-hidden="true"
        />
        <p className="font-semibold">Chargement de votre récompense…</p>
      </div>
    );
  } else if (query.isError && !query.data) {
    const notFound = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    body = (
      <div className="flex flex-col items-center gap-4 py-10 text-center">
        <GlyphBadge name="alert" tone="warning" size="lg" />
        <h1 className="text-2xl font-bold">{notFound ? "Récompense introuvable" : "Connexion impossible"}</h1>
        <p className="text-stone-700 dark:text-stone-300">{query.error.message}</p>
        {notFound ? (
          <ButtonLink to="/cartes-de-fidelite">Mes cartes</ButtonLink>
        ) : (
          <Button onClick={() => void query.refetch()}>Réessayer</Button>
        )}
      </div>
    );
  } else if (query.data) {
    const redemption = query.data;
    body =
      redemption.status === "pending" ? (
        <PendingView
          redemption={redemption}
          onExpired={() => void queryClient.invalidateQueries({ queryKey: key })}
          onCancelled={(r) => queryClient.setQueryData(key, r)}
        />
      ) : (
        <FinalView redemption={redemption as Redemption & { status: Exclude<Redemption["status"], "pending"> }} />
      );
  }
  const final = query.data && query.data.status !== "pending" ? FINAL[query.data.status] : null;

  return (
    <div className="mx-auto flex max-w-md flex-col gap-4 px-5 pb-10 pt-5">
      {query.data && query.isError ? (
        <Notice tone="info">Connexion instable : l'écran se mettra à jour dès le retour du réseau.</Notice>
      ) : null}
      {/* Always in the page, so the change of state is announced the moment it happens. */}
      <p className="sr-only" aria-live="assertive">
        {final && query.data ? `${final.title}. Nouveau solde : ${query.data.balanceLabel}.` : ""}
      </p>
      {body}
      <p className="text-center text-sm text-stone-600 dark:text-stone-400">
        <Link to="/vip" className="font-semibold text-brand-800 underline dark:text-brand-200">
          Mes niveaux VIP et cadeaux
        </Link>
      </p>
    </div>
  );
}
