import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link, useLocation, useNavigate, useParams, useSearchParams } from "react-router";
import { SCAN_UID_PATTERN, type ScanCode } from "../../../../domain/loyalty/scan-code.ts";
import { Glyph, GlyphBadge, type GlyphName, type GlyphTone } from "../../../components/loyalty/glyph.tsx";
import { APP_DESIGN, LoyaltyCard, readableOn } from "../../../components/loyalty/loyalty-card.tsx";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import { SCAN_KEYS } from "../api/keys.ts";
import { useMe } from "../../../lib/me.ts";
import { useShopByScan } from "../api/get-shop-by-scan.ts";
import { postScan, type ScanAnswer } from "../api/post-scan.ts";
import { postScanClaim } from "../api/post-scan-claim.ts";
import { keepOfflineScan, OFFLINE_SCAN_SENT } from "../api/offline-scans.ts";
import { deviceId } from "../../../lib/device-id.ts";
import { attemptIdempotencyKey, endAttempt, keepClaim, pendingClaim } from "../api/scan-keys.ts";
import { formatAmount, formatMoment } from "../../../../domain/format.ts";
import { multipliedFr } from "../../../../domain/phrases.ts";
import { useMyCards } from "../../../components/loyalty/my-cards-query.ts";
import { WalletButtons } from "../components/wallet-buttons.tsx";
import { CardRewardsLine, cardHint } from "../components/card-rewards.tsx";

type Outcome = ScanAnswer["outcome"];

const REFUSAL: Record<
  Exclude<Outcome, "accepted">,
  { title: string; glyph: GlyphName; tone: GlyphTone; rescan: boolean }
> = {
  cooldown: { title: "Passage déjà crédité", glyph: "clock", tone: "warning", rescan: false },
  daily_cap: { title: "Limite du jour atteinte", glyph: "clock", tone: "warning", rescan: false },
  stale_code: { title: "Ce code a expiré", glyph: "refresh", tone: "warning", rescan: true },
  invalid_code: { title: "Code non valable", glyph: "alert", tone: "danger", rescan: true },
  poster_disabled: { title: "Affiche non acceptée", glyph: "alert", tone: "warning", rescan: true },
  suspended: { title: "Boutique suspendue", glyph: "alert", tone: "danger", rescan: false },
  unknown_shop: { title: "Boutique inconnue", glyph: "alert", tone: "danger", rescan: true },
  offline_late: { title: "Passage envoyé trop tard", glyph: "clock", tone: "warning", rescan: false },
  amount_required: { title: "Points selon vos achats", glyph: "alert", tone: "warning", rescan: false },
  receipt_expired: { title: "Ticket trop ancien", glyph: "clock", tone: "warning", rescan: false },
  receipt_used: { title: "Ticket déjà utilisé", glyph: "alert", tone: "warning", rescan: false },
};

type State = { kind: "waiting" } | { kind: "error"; message: string } | { kind: "kept" };

/**
 * /boutique/{scanUid}?t=… — the URL of every shop code. Signed in, the visit is credited at once; signed out,
 * the page first gets a scan claim for the code (it outlives the code's 60 s: ADR 0012), then the person goes
 * through /scanner-auth and comes back here, where the same idempotency key is sent with the claim. The
 * answer is kept in the history entry, so a reload shows it again instead of scanning a second time.
 */
export default function ScanPage() {
  const { scanUid = "" } = useParams();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const meQuery = useMe();
  const token = params.get("t");
  const poster = params.get("p");
  const code: ScanCode = useMemo(() => ({ scanUid, token, poster }), [scanUid, token, poster]);
  const here = location.pathname + location.search;
  const answer = (location.state as { answer?: ScanAnswer } | null)?.answer ?? null;
  const isKnownFormat = SCAN_UID_PATTERN.test(scanUid);
  const shop = useShopByScan(isKnownFormat ? scanUid : null);
  const [state, setState] = useState<State>({ kind: "waiting" });

  const problem = !isKnownFormat
    ? "Ce code ne correspond à aucune boutique Fidèle."
    : !token && !poster
      ? "Ce code est incomplet : scannez le code affiché au comptoir."
      : null;

  const toSignIn = useCallback(async () => {
    attemptIdempotencyKey(code);
    if (code.token && !pendingClaim(code)) {
      try {
        const { claim, expiresAt } = await postScanClaim({ scanUid: code.scanUid, token: code.token });
        if (claim && expiresAt) keepClaim(code, { claim, expiresAt });
      } catch {
        // No claim (offline, limited): the scan will be judged on the code alone, as before.
      }
    }
    navigate(`/scanner-auth?redirect=${encodeURIComponent(here)}`, { replace: true });
  }, [code, here, navigate]);

  const send = useCallback(async () => {
    setState({ kind: "waiting" });
    const claim = code.token ? pendingClaim(code) : undefined;
    try {
      const result = await postScan({
        scanUid: code.scanUid,
        ...(code.token ? { token: code.token } : {}),
        ...(code.poster ? { poster: code.poster } : {}),
        ...(claim ? { claim } : {}),
        deviceId: deviceId(),
        idempotencyKey: attemptIdempotencyKey(code),
      });
      endAttempt(code);
      for (const key of SCAN_KEYS) void queryClient.invalidateQueries({ queryKey: [...key] });
      navigate(here, { replace: true, state: { answer: result } });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return toSignIn();
      // No network at the counter: the code is kept and sent when the network returns (offline-scans.ts).
      if (error instanceof ApiError && error.status === 0 && code.token) {
        keepOfflineScan({
          scanUid: code.scanUid,
          token: code.token,
          deviceId: deviceId(),
          idempotencyKey: attemptIdempotencyKey(code),
          offlineAt: new Date().toISOString(),
        });
        return setState({ kind: "kept" });
      }
      // The key stays: "Réessayer" sends the same one, so a request that did arrive is not credited twice.
      setState({ kind: "error", message: errorText(error) });
    }
  }, [code, here, navigate, queryClient, toSignIn]);

  // A kept scan sent when the network returned: its answer shows here if the page is still open.
  useEffect(() => {
    if (state.kind !== "kept") return;
    const key = attemptIdempotencyKey(code);
    const onSent = (event: Event) => {
      const detail = (event as CustomEvent<{ idempotencyKey: string; answer: ScanAnswer }>).detail;
      if (detail.idempotencyKey === key) navigate(here, { replace: true, state: { answer: detail.answer } });
    };
    window.addEventListener(OFFLINE_SCAN_SENT, onSent);
    return () => window.removeEventListener(OFFLINE_SCAN_SENT, onSent);
  }, [state.kind, code, here, navigate]);

  const started = useRef(false);
  useEffect(() => {
    if (answer || problem || meQuery.isPending || started.current) return;
    started.current = true;
    if (!meQuery.data) void toSignIn();
    else void send();
  }, [answer, problem, meQuery.isPending, meQuery.data, send, toSignIn]);

  const design = shop.data?.design ?? APP_DESIGN;
  const shopName = answer?.shop?.name ?? shop.data?.name ?? null;

  if (problem) {
    return <Refusal title="Code non reconnu" glyph="alert" tone="danger" message={problem} rescan />;
  }
  if (state.kind === "kept" && !answer) {
    return (
      <Refusal
        title="Passage gardé sur ce téléphone"
        glyph="clock"
        tone="warning"
        message={`Pas de réseau pour l'instant. Votre passage${shopName ? ` chez ${shopName}` : ""} est gardé et sera envoyé dès le retour du réseau, pendant le délai que la boutique accorde aux passages hors ligne.`}
        rescan={false}
      />
    );
  }
  if (answer) {
    return answer.accepted ? (
      <Accepted answer={answer} design={design} logoUrl={shop.data?.logoUrl ?? null} />
    ) : (
      <Refusal {...REFUSAL[answer.outcome as Exclude<Outcome, "accepted">]} message={answer.message}>
        {answer.card && answer.shop ? (
          <Link to={`/shop/${answer.shop.slug}`} className="block rounded-3xl focus-visible:outline-offset-4">
            <ScannedCard answer={answer} design={design} logoUrl={shop.data?.logoUrl ?? null} />
          </Link>
        ) : null}
      </Refusal>
    );
  }
  return (
    <div className="mx-auto flex max-w-md flex-col gap-5 px-5 pb-10 pt-8">
      <div className="flex flex-col items-center gap-4 text-center" aria-live="polite">
        <span
          className="relative flex size-20 items-center justify-center rounded-full"
          style={{ background: design.background, color: design.foreground }}
        >
          {state.kind === "waiting" ? (
            <span
              className="size-10 animate-spin rounded-full border-4 border-current border-t-transparent"
              aria-hidden="true"
            />
          ) : (
            <Glyph name="alert" className="size-10" />
          )}
        </span>
        <h1 className="text-2xl font-bold tracking-tight">
          {state.kind === "waiting" ? "Validation de votre passage…" : "Passage non validé"}
        </h1>
        {shopName ? <p className="text-stone-700 dark:text-stone-300">chez {shopName}</p> : null}
      </div>
      {state.kind === "error" ? (
        <>
          <Notice tone="error">{state.message}</Notice>
          <Button full onClick={() => void send()}>
            Réessayer
          </Button>
          <p className="text-center text-sm text-stone-600 dark:text-stone-400">
            Votre passage ne sera compté qu'une fois, même si vous réessayez.
          </p>
        </>
      ) : null}
    </div>
  );
}

/** Confetti in the shop's colours (decorative, still). */
const CONFETTI = [
  [8, 18, 10, 20],
  [20, 70, 6, -30],
  [33, 10, 8, 45],
  [48, 82, 10, 10],
  [62, 14, 6, -15],
  [76, 64, 9, 60],
  [88, 22, 7, -40],
  [92, 78, 6, 25],
  [14, 48, 5, 0],
  [84, 44, 5, 0],
] as const;

/**
 * The card the scan answered with, saying what comes next the way the card does everywhere else: « Prochaine
 * récompense : Croissant offert (encore 2 tampons) » when the shop names rewards, « Plus qu'un tampon avant votre
 * récompense » when it names none (issue 25 row 12). The rewards come with my cards, refreshed by the scan (read off
 * the scan's own hot path); until they match the answer's balance, the card says nothing that might be untrue.
 */
function ScannedCard({
  answer,
  design,
  logoUrl,
  fresh = 0,
}: {
  answer: ScanAnswer;
  design: typeof APP_DESIGN;
  logoUrl: string | null;
  fresh?: number;
}) {
  const cards = useMyCards();
  if (!answer.card || !answer.shop) return null;
  const { id, balance, progress } = answer.card;
  const mine = cards.data?.find((c) => c.id === id && c.balance === balance);
  return (
    <LoyaltyCard
      shopName={answer.shop.name}
      design={design}
      logoUrl={logoUrl}
      progress={progress}
      fresh={fresh}
      hint={mine ? cardHint(mine.rewards) : cards.isFetching ? null : undefined}
      footer={mine ? <CardRewardsLine mode={progress.mode} rewards={mine.rewards} /> : undefined}
    />
  );
}

function Accepted({
  answer,
  design,
  logoUrl,
}: {
  answer: ScanAnswer;
  design: typeof APP_DESIGN;
  logoUrl: string | null;
}) {
  const mode = answer.card?.mode ?? "stamps";
  const gained = formatAmount(mode, answer.delta);
  const onAccent = readableOn(design.accent);
  return (
    <div className="pb-10">
      <section
        className="relative overflow-hidden px-5 pb-16 pt-8 text-center"
        style={{ background: design.background, color: design.foreground }}
      >
        {CONFETTI.map(([left, top, size, rotate], i) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed decoration.
            key={i}
            className="pointer-events-none absolute rounded-sm"
            style={{
              left: `${left}%`,
              top: `${top}%`,
              width: size,
              height: size * 1.8,
              transform: `rotate(${rotate}deg)`,
              background: i % 2 ? design.accent : design.foreground,
              opacity: 0.55,
            }}
            aria-hidden="true"
          />
        ))}
        <span
          className="relative mx-auto flex size-20 items-center justify-center rounded-full shadow-lg"
          style={{ background: design.accent, color: onAccent }}
        >
          <Glyph name="check" className="size-11" />
        </span>
        <h1 className="relative mt-4 text-3xl font-black tracking-tight">Passage validé !</h1>
        <p className="relative mt-1 text-5xl font-black tabular-nums">+{gained}</p>
        {answer.multiplier > 1 ? (
          <p
            className="relative mt-3 inline-flex rounded-full px-3 py-1 text-sm font-bold"
            style={{ background: design.accent, color: onAccent }}
          >
            {multipliedFr(mode, answer.multiplier)}
            {answer.periodLabel ? ` · ${answer.periodLabel}` : ""}
          </p>
        ) : null}
      </section>
      <div className="relative mx-auto -mt-10 flex max-w-md flex-col gap-5 px-5">
        <div
          className="rounded-2xl bg-white p-4 text-center font-medium shadow-md ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800"
          role="status"
        >
          {answer.message}
        </div>
        <ScannedCard answer={answer} design={design} logoUrl={logoUrl} fresh={mode === "stamps" ? answer.delta : 1} />
        {answer.nextAt ? (
          <p className="text-center text-sm text-stone-600 dark:text-stone-400">
            Prochain passage crédité : {formatMoment(answer.nextAt)}.
          </p>
        ) : null}
        {answer.card && answer.shop && answer.card.lifetime === answer.delta ? (
          // The first visit (the card's whole total is this one): the card can go into the phone's wallet.
          <WalletButtons cardId={answer.card.id} shopName={answer.shop.name} />
        ) : null}
        <div className="grid grid-cols-2 gap-3">
          <ButtonLink to="/cartes-de-fidelite" full>
            Mes cartes
          </ButtonLink>
          {answer.shop ? (
            <ButtonLink to={`/shop/${answer.shop.slug}`} variant="secondary" full>
              La boutique
            </ButtonLink>
          ) : null}
        </div>
      </div>
    </div>
  );
}

function Refusal({
  title,
  glyph,
  tone,
  message,
  rescan,
  children,
}: {
  title: string;
  glyph: GlyphName;
  tone: GlyphTone;
  message: string;
  rescan: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto flex max-w-md flex-col gap-5 px-5 pb-10 pt-8">
      <div className="flex flex-col items-center gap-4 text-center">
        <GlyphBadge name={glyph} tone={tone} size="lg" />
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        <p className="text-stone-800 dark:text-stone-200" role="status">
          {message}
        </p>
      </div>
      {children}
      <div className="flex flex-col gap-3">
        {rescan ? (
          <ButtonLink to="/scanner" full>
            Scanner à nouveau
          </ButtonLink>
        ) : null}
        <ButtonLink to="/cartes-de-fidelite" variant={rescan ? "secondary" : "primary"} full>
          Mes cartes
        </ButtonLink>
      </div>
    </div>
  );
}
