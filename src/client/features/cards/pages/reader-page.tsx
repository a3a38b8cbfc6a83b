import { useEffect, useState } from "react";
import { Link } from "react-router";
import { CODE_STEP_SECONDS } from "../../../../domain/loyalty/scan-code.ts";
import { SCAN_OUTCOME_LABELS_FR, scanMessageFr } from "../../../../domain/loyalty/scan-rules.ts";
import { displayShortCode } from "../../../../domain/loyalty/short-code.ts";
import { APP_DESIGN } from "../../../components/loyalty/loyalty-card.tsx";
import { StampIcon } from "../../../components/loyalty/stamp-icon.tsx";
import { QrImage } from "../../../components/qr/qr-image.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { useCounterCode } from "../api/counter-code.ts";
import { CounterShopPicker, useCounterShop } from "../components/counter-shop.tsx";
import { cardsKeys } from "../api/keys.ts";

/** A ring emptying over the 30 s of a code, and the seconds left. */
function Countdown({ endsAt, foreground }: { endsAt: number; foreground: string }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, []);
  const left = Math.max(0, Math.min(CODE_STEP_SECONDS, (endsAt - now) / 1000));
  const radius = 26;
  const circumference = 2 * Math.PI * radius;
  return (
    <div className="flex items-center gap-3">
      <svg viewBox="0 0 64 64" className="size-16 -rotate-90" aria-hidden="true">
        <circle cx="32" cy="32" r={radius} fill="none" stroke={foreground} strokeOpacity="0.25" strokeWidth="6" />
        <circle
          cx="32"
          cy="32"
          r={radius}
          fill="none"
          stroke={foreground}
          strokeWidth="6"
          strokeLinecap="round"
          strokeDasharray={circumference}
          strokeDashoffset={circumference * (1 - left / CODE_STEP_SECONDS)}
          style={{ transition: "stroke-dashoffset 250ms linear" }}
        />
      </svg>
      <p className="text-lg font-semibold">
        Nouveau code dans <span className="tabular-nums">{Math.ceil(left)}</span> s
      </p>
    </div>
  );
}

/** Keeps a counter tablet's screen on while the code is shown (Screen Wake Lock API, where there is one). */
function useWakeLock() {
  useEffect(() => {
    if (!("wakeLock" in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    const request = () => {
      if (document.visibilityState === "visible") {
        navigator.wakeLock
          .request("screen")
          .then((l) => {
            lock = l;
          })
          .catch(() => {});
      }
    };
    request();
    document.addEventListener("visibilitychange", request);
    return () => {
      document.removeEventListener("visibilitychange", request);
      void lock?.release().catch(() => {});
    };
  }, []);
}

/**
 * /reader (staff): the counter's QR code, big enough to scan from a step away, renewed every 30 s (fetched again
 * when the server says it expires). Portrait on a phone, side by side on a tablet or a phone in landscape.
 */
/** The counter's top bar: back to the counter, and the shop picker (the same on the suspended screen). */
function CounterTopBar({
  counter,
  className = "",
}: {
  counter: ReturnType<typeof useCounterShop>;
  className?: string;
}) {
  return (
    <div className={`${className} flex items-center justify-between gap-3 px-4 pt-3`}>
      <Link to="/manager" className="rounded-lg px-3 py-2 text-sm font-semibold underline-offset-4 hover:underline">
        ← Comptoir
      </Link>
      <div className="w-56 text-stone-900">
        <CounterShopPicker counter={counter} />
      </div>
    </div>
  );
}

export default function ReaderPage() {
  const counter = useCounterShop();
  const { shopId } = counter;
  useWakeLock();
  // The live code, or offline the one of this step among the codes fetched ahead (counter-code.ts).
  const { code: current, ...code } = useCounterCode(shopId);
  const design = current?.shop.design ?? APP_DESIGN;
  const name = current?.shop.name ?? counter.shopName ?? "Votre boutique";

  if (!shopId) {
    return (
      <div className="mx-auto flex min-h-dvh max-w-md flex-col justify-center gap-4 px-6 text-center">
        <h1 className="text-2xl font-bold">Code du comptoir</h1>
        <p className="text-stone-700">
          Cette page affiche le code d'une boutique dont vous faites partie. Aucune boutique n'est liée à votre compte.
        </p>
        <Link to="/" className="font-semibold text-brand-800 underline">
          Retour à l'accueil
        </Link>
      </div>
    );
  }

  // A suspended shop shows no code at all (a shopper would scan it for nothing): the screen says why, in the words
  // a shopper's scan gets (issue 25 row 2).
  if (current?.shop.status === "suspended") {
    return (
      <div className="flex min-h-dvh flex-col bg-stone-900 text-white">
        <CounterTopBar counter={counter} />
        <div className="flex flex-1 flex-col items-center justify-center gap-4 px-6 pb-10 text-center" role="alert">
          <h1 className="text-4xl font-black tracking-tight">{SCAN_OUTCOME_LABELS_FR.suspended}</h1>
          <p className="max-w-md text-xl">
            {scanMessageFr({
              outcome: "suspended",
              shopName: name,
              mode: "stamps",
              delta: 0,
              multiplier: 1,
              nextAt: null,
              timezone: "Europe/Paris",
              now: new Date(),
            })}
          </p>
          <p className="max-w-md text-base text-stone-300">
            Aucun code n'est affiché tant que la boutique est suspendue.
          </p>
        </div>
      </div>
    );
  }

  return (
    <div
      className="relative flex min-h-dvh flex-col"
      style={{ background: design.background, color: design.foreground }}
    >
      <span className="pointer-events-none absolute -bottom-24 -left-20 opacity-10" aria-hidden="true">
        <StampIcon name={design.stampIcon} className="size-96" />
      </span>
      <CounterTopBar counter={counter} className="relative" />
      <div className="relative flex flex-1 flex-col items-center justify-center gap-6 px-6 pb-8 pt-2 landscape:flex-row landscape:gap-12">
        <div className="aspect-square w-[min(86vw,60vh)] rounded-3xl bg-white p-3 shadow-2xl landscape:w-auto landscape:h-[min(78vh,55vw)]">
          {current ? (
            <QrImage text={current.url} label={`QR code à scanner pour valider un passage chez ${name}`} />
          ) : (
            <div
              className="flex size-full flex-col items-center justify-center gap-3 p-6 text-center text-stone-800"
              role="status"
            >
              {code.isError || !code.isPending ? (
                <p className="font-semibold">
                  Connexion perdue : le code ne peut pas être renouvelé. Nouvel essai dans quelques secondes…
                </p>
              ) : (
                <>
                  <span
                    className="size-10 animate-spin rounded-full border-4 border-brand-700 border-t-transparent"
                    aria-hidden="true"
                  />
                  <p className="font-semibold">Préparation du code…</p>
                </>
              )}
            </div>
          )}
        </div>
        {current?.shortCode ? <ShortCode code={current.shortCode} /> : null}
        <div className="flex max-w-md flex-col items-center gap-4 text-center landscape:items-start landscape:text-left">
          {current?.shop.logoUrl ? (
            <img src={current.shop.logoUrl} alt="" className="size-16 rounded-2xl bg-white object-cover" />
          ) : null}
          <h1 className="text-3xl font-black leading-tight tracking-tight sm:text-4xl">{name}</h1>
          <p className="text-xl font-semibold">Scannez ce code pour valider votre passage</p>
          <p className="text-base">Avec l'appareil photo de votre téléphone ou le scanner de l'application Fidèle.</p>
          {current ? <Countdown endsAt={current.endsAt} foreground={design.foreground} /> : null}
          {code.isError && code.error instanceof ApiError && code.error.status !== 0 ? (
            <p className="rounded-xl bg-white px-4 py-2 font-semibold text-red-800">{code.error.message}</p>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/** The code to type on /scanner when a camera fails: big, spaced, in two groups of three. */
function ShortCode({ code }: { code: string }) {
  return (
    <div className="relative -mt-2 flex flex-col items-center text-center landscape:mt-0">
      <p className="text-sm font-semibold">Pas de caméra ? Tapez ce code dans l'application :</p>
      <p className="font-mono text-4xl font-black tracking-[0.2em] tabular-nums" data-testid="short-code">
        {displayShortCode(code)}
      </p>
    </div>
  );
}
