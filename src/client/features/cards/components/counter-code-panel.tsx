import { type ReactNode, useEffect, useState } from "react";
import { CODE_STEP_SECONDS } from "../../../../domain/loyalty/scan-code.ts";
import { SCAN_OUTCOME_LABELS_FR, scanMessageFr } from "../../../../domain/loyalty/scan-rules.ts";
import { displayShortCode } from "../../../../domain/loyalty/short-code.ts";
import { QrImage } from "../../../components/qr/qr-image.tsx";
import type { useRotatingCode } from "../api/counter-code.ts";

/** The pieces of a counter screen showing the rotating code: /reader and the counter tablet (ADR 0054). */

/** A ring emptying over the 30 s of a code, and the seconds left. */
export function Countdown({ endsAt, foreground }: { endsAt: number; foreground: string }) {
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

/** Keeps a counter screen on while the code is shown (Screen Wake Lock API, where there is one). */
export function useWakeLock() {
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

/** The code to type on /scanner when a camera fails: big, spaced, in two groups of three. */
export function ShortCode({ code }: { code: string }) {
  return (
    <div className="relative -mt-2 flex flex-col items-center text-center landscape:mt-0">
      <p className="text-sm font-semibold">Pas de caméra ? Tapez ce code dans l'application :</p>
      <p className="font-mono text-4xl font-black tracking-[0.2em] tabular-nums" data-testid="short-code">
        {displayShortCode(code)}
      </p>
    </div>
  );
}

/** The white square of the code: its QR, or why there is none yet (offline, connection lost, loading). */
export function CodeSquare({
  counterCode,
  shopName,
  className = "",
}: {
  counterCode: ReturnType<typeof useRotatingCode>;
  shopName: string;
  className?: string;
}) {
  const { code: current, ...code } = counterCode;
  return (
    <div className={`aspect-square rounded-3xl bg-white p-3 shadow-2xl ${className}`}>
      {current ? (
        <QrImage text={current.url} label={`QR code à scanner pour valider un passage chez ${shopName}`} />
      ) : (
        <div
          className="flex size-full flex-col items-center justify-center gap-3 p-6 text-center text-stone-800"
          role="status"
        >
          {code.isOffline ? (
            <p className="font-semibold">
              Hors connexion : aucun code n'est gardé sur cet appareil. Il s'affichera dès le retour du réseau.
            </p>
          ) : code.isError || !code.isPending ? (
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
  );
}

/**
 * A suspended shop shows no code at all (a shopper would scan it for nothing): the screen says why, in the words a
 * shopper's scan gets (issue 25 row 2).
 */
export function SuspendedCounter({ shopName, topBar }: { shopName: string; topBar?: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-stone-900 text-white">
      {topBar}
      <div className="flex flex-1 flex-col items-center justify-center gap-4 px-6 pb-10 text-center" role="alert">
        <h1 className="text-4xl font-black tracking-tight">{SCAN_OUTCOME_LABELS_FR.suspended}</h1>
        <p className="max-w-md text-xl">
          {scanMessageFr({
            outcome: "suspended",
            shopName,
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
