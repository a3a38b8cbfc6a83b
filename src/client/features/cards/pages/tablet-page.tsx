import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { capitalize, formatAgo, formatAmount } from "../../../../domain/format.ts";
import { formatCents } from "../../../../domain/loyalty/amount.ts";
import { APP_DESIGN } from "../../../components/loyalty/loyalty-card.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import {
  type AmountCode,
  type TabletScreen,
  type TabletVisit,
  tabletScreenQueryOptions,
  usePairTablet,
  useTabletCode,
  useTabletVisits,
} from "../api/tablet.ts";
import { CodeSquare, Countdown, ShortCode, SuspendedCounter, useWakeLock } from "../components/counter-code-panel.tsx";
import { AmountCodeView, AmountEntry } from "../components/tablet-amount.tsx";

/**
 * /tablette — the counter tablet (issue 29 item 6, ADR 0054): paired once by the link its owner made (the code in
 * the address's fragment, removed at once), it shows the shop's rotating code full-screen, the last credited visits,
 * and « Saisir un montant » for staff. It is no signed-in session: nothing of the back office opens from here.
 */
const PAIRING = /(?:^#|&)appairage=([A-Za-z0-9_-]{43})(?:&|$)/;

/** The pairing code of the address, taken out of it (and out of the history) before anything else. */
function takePairingCode(): string | null {
  const code = PAIRING.exec(window.location.hash)?.[1] ?? null;
  if (window.location.hash) window.history.replaceState(window.history.state, "", window.location.pathname);
  return code;
}

export default function TabletPage() {
  const [pairingCode] = useState(takePairingCode);
  const pair = usePairTablet();
  const started = useRef(false);
  useEffect(() => {
    if (pairingCode && !started.current) {
      started.current = true;
      pair.mutate(pairingCode);
    }
  }, [pairingCode, pair]);
  const pairing = Boolean(pairingCode) && (pair.isIdle || pair.isPending);
  const screen = useQuery({ ...tabletScreenQueryOptions(), enabled: !pairing, retry: false });

  if (pairing || screen.isPending) {
    return (
      <div className="flex min-h-dvh flex-col items-center justify-center gap-4 px-6 text-center" role="status">
        <span
          className="size-10 animate-spin rounded-full border-4 border-brand-700 border-t-transparent"
          aria-hidden="true"
        />
        <h1 className="text-2xl font-bold">{pairing ? "Appairage de la tablette…" : "Tablette de comptoir"}</h1>
      </div>
    );
  }
  if (screen.isError) {
    const unpaired = screen.error instanceof ApiError && screen.error.status === 401;
    return (
      <Unpaired
        error={pair.isError ? errorText(pair.error) : unpaired ? null : errorText(screen.error)}
        onRetry={unpaired ? null : () => void screen.refetch()}
      />
    );
  }
  if (screen.data.shop.status === "suspended") return <SuspendedCounter shopName={screen.data.shop.name} />;
  return <TabletScreenView screen={screen.data} />;
}

function Unpaired({ error, onRetry }: { error: string | null; onRetry: (() => void) | null }) {
  return (
    <div className="mx-auto flex min-h-dvh max-w-xl flex-col justify-center gap-5 px-6 py-10">
      <h1 className="text-3xl font-black tracking-tight">Tablette de comptoir</h1>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <p className="text-lg">Cette tablette n'est reliée à aucune boutique.</p>
      <ol className="flex list-decimal flex-col gap-2 pl-6 text-lg text-stone-800">
        <li>
          Le responsable de la boutique ouvre Caisse et API › Tablette de comptoir, sur son téléphone ou son ordinateur.
        </li>
        <li>Il ajoute une tablette : un lien et son QR code s'affichent, valables une heure.</li>
        <li>Ouvrez ce lien sur cette tablette, ou scannez le QR code avec son appareil photo.</li>
      </ol>
      {onRetry ? (
        <Button className="self-start" onClick={onRetry}>
          Réessayer
        </Button>
      ) : null}
    </div>
  );
}

function TabletScreenView({ screen }: { screen: TabletScreen }) {
  useWakeLock();
  const counterCode = useTabletCode(!screen.amount);
  const visits = useTabletVisits(true);
  // Revoked while on screen: the screen is asked again, and its 401 shows the « not paired » page.
  const queryClient = useQueryClient();
  const revoked = [visits.error, counterCode.error].some((e) => e instanceof ApiError && e.status === 401);
  useEffect(() => {
    if (revoked) void queryClient.refetchQueries({ queryKey: tabletScreenQueryOptions().queryKey });
  }, [revoked, queryClient]);
  const [entering, setEntering] = useState(false);
  const [shown, setShown] = useState<AmountCode | null>(null);
  const closeEntry = useCallback(() => setEntering(false), []);
  const closeCode = useCallback(() => setShown(null), []);
  const current = counterCode.code;
  const design = current?.shop.design ?? screen.shop.design ?? APP_DESIGN;
  const name = screen.shop.name;
  return (
    <div className="flex min-h-dvh flex-col" style={{ background: design.background, color: design.foreground }}>
      <header className="flex items-center gap-4 px-6 pt-5">
        {screen.shop.logoUrl ? (
          <img src={screen.shop.logoUrl} alt="" className="size-14 shrink-0 rounded-2xl bg-white object-cover" />
        ) : null}
        <div className="min-w-0">
          <h1 className="text-3xl font-black leading-tight tracking-tight sm:text-4xl">{name}</h1>
          <p className="text-sm font-semibold opacity-90">Tablette « {screen.tablet.name} »</p>
        </div>
      </header>
      <div className="flex flex-1 flex-col items-center gap-6 px-6 py-6 landscape:flex-row landscape:items-stretch landscape:gap-10">
        {screen.amount ? (
          // A card that earns by amount refuses a visit without one (amount_required): no counter code here, the
          // amount's QR code is the way in.
          <section
            aria-labelledby="amount-title"
            className="flex w-full max-w-xl flex-col items-center justify-center gap-5 text-center landscape:flex-1"
          >
            <h2 id="amount-title" className="text-3xl font-black leading-tight tracking-tight sm:text-4xl">
              Vos points selon vos achats
            </h2>
            <p className="text-xl font-semibold">{capitalize(screen.amount.rule)}.</p>
            <p className="text-lg">L'équipe saisit le montant, puis vous scannez le QR code qui s'affiche.</p>
            {/* White on any shop colour: the one control of the screen, seen from across the counter. */}
            <button
              type="button"
              className="min-h-24 w-full max-w-md rounded-3xl bg-white px-8 py-5 text-3xl font-black text-stone-900 shadow-xl transition active:scale-[0.98] sm:text-4xl"
              onClick={() => setEntering(true)}
            >
              Saisir un montant
            </button>
          </section>
        ) : (
          <section
            aria-label="Code du comptoir"
            className="flex flex-col items-center justify-center gap-4 text-center landscape:flex-1"
          >
            <CodeSquare
              counterCode={counterCode}
              shopName={name}
              className="w-[min(86vw,50vh)] landscape:w-[min(58vh,44vw)]"
            />
            <p className="text-2xl font-bold">Scannez ce code pour valider votre passage</p>
            <div className="flex flex-col items-center gap-4 landscape:flex-row landscape:gap-10">
              {current ? <Countdown endsAt={current.endsAt} foreground={design.foreground} /> : null}
              {current?.shortCode ? <ShortCode code={current.shortCode} /> : null}
            </div>
          </section>
        )}
        <div className="flex w-full max-w-xl flex-col gap-5 landscape:w-[26rem] landscape:justify-center">
          <LastVisits visits={visits.data?.visits ?? null} mode={screen.shop.mode} />
        </div>
      </div>
      {entering && screen.amount ? (
        <AmountEntry
          rule={screen.amount.rule}
          onClose={closeEntry}
          onCode={(code) => {
            setEntering(false);
            setShown(code);
          }}
        />
      ) : null}
      {shown ? <AmountCodeView code={shown} onClose={closeCode} /> : null}
    </div>
  );
}

function LastVisits({ visits, mode }: { visits: TabletVisit[] | null; mode: TabletScreen["shop"]["mode"] }) {
  // « il y a 2 min » moves on by itself.
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 20_000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <section aria-labelledby="last-visits" className="rounded-3xl bg-white p-5 text-stone-900 shadow-lg">
      <h2 id="last-visits" className="text-xl font-bold">
        Derniers passages
      </h2>
      {visits === null ? (
        <p className="mt-3 text-stone-700">Chargement…</p>
      ) : visits.length === 0 ? (
        <p className="mt-3 text-stone-700">Aucun passage cette semaine. Chaque visite créditée s'affichera ici.</p>
      ) : (
        <ul className="mt-2 divide-y divide-stone-200" aria-label="Derniers passages crédités">
          {visits.map((v) => (
            <li key={v.id} className="flex items-baseline justify-between gap-3 py-2.5">
              <span className="min-w-0">
                <span className="block truncate text-lg font-semibold">{v.name}</span>
                <span className="text-sm text-stone-700">
                  {formatAgo(v.at, now)}
                  {v.amountCents !== null ? ` · ${formatCents(v.amountCents)}` : ""}
                </span>
              </span>
              <span className="shrink-0 text-lg font-bold text-brand-800 tabular-nums">
                +{formatAmount(mode, v.delta)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
