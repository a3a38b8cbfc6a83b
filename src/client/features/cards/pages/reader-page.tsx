import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { CODE_STEP_SECONDS } from "../../../../domain/loyalty/scan-code.ts";
import { APP_DESIGN, readableOn } from "../../../components/loyalty/loyalty-card.tsx";
import { StampIcon } from "../../../components/loyalty/stamp-icon.tsx";
import { QrImage } from "../../../components/qr/qr-image.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { getReaderCode } from "../api/counter.ts";
import { CounterShopPicker, useCounterShop } from "../components/counter-shop.tsx";

/** The code of this step, with the difference between the server's clock and this screen's. */
async function fetchCode(shopId: string) {
  const code = await getReaderCode(shopId);
  return { ...code, skewMs: Date.parse(code.serverTime) - Date.now() };
}
type Code = Awaited<ReturnType<typeof fetchCode>>;

/** When the code stops being the current one, on this screen's clock. */
const localExpiry = (code: Code) => Date.parse(code.expiresAt) - code.skewMs;

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
export default function ReaderPage() {
  const counter = useCounterShop();
  const { shopId } = counter;
  useWakeLock();
  const code = useQuery({
    queryKey: ["counter", shopId, "reader"],
    queryFn: () => fetchCode(shopId ?? ""),
    enabled: Boolean(shopId),
    staleTime: Number.POSITIVE_INFINITY,
    // Fetched again as the code expires (a quarter second after, on the server's clock), and every 5 s while it fails.
    refetchInterval: (query) => (query.state.data && !query.state.error ? Math.max(1_000, localExpiry(query.state.data) - Date.now() + 250) : 5_000),
    refetchIntervalInBackground: true,
    retry: 1,
  });
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1_000);
    return () => window.clearInterval(timer);
  }, []);

  const design = code.data?.shop.design ?? APP_DESIGN;
  const name = code.data?.shop.name ?? counter.shopName ?? "Votre boutique";
  // A code stays valid one step after it stops being current: past that, showing it would only mislead.
  const isDead = code.data ? now > localExpiry(code.data) + CODE_STEP_SECONDS * 1000 : false;

  if (!shopId) {
    return (
      <div className="mx-auto flex min-h-dvh max-w-md flex-col justify-center gap-4 px-6 text-center">
        <h1 className="text-2xl font-bold">Code du comptoir</h1>
        <p className="text-stone-700">Cette page affiche le code d'une boutique dont vous faites partie. Aucune boutique n'est liée à votre compte.</p>
        <Link to="/" className="font-semibold text-brand-800 underline">
          Retour à l'accueil
        </Link>
      </div>
    );
  }

  return (
    <div className="relative flex min-h-dvh flex-col" style={{ background: design.background, color: design.foreground }}>
      <span className="pointer-events-none absolute -bottom-24 -left-20 opacity-10" aria-hidden="true">
        <StampIcon name={design.stampIcon} className="size-96" />
      </span>
      <div className="relative flex items-center justify-between gap-3 px-4 pt-3">
        <Link to="/manager" className="rounded-lg px-3 py-2 text-sm font-semibold underline-offset-4 hover:underline">
          ← Comptoir
        </Link>
        <div className="w-56 text-stone-900">
          <CounterShopPicker counter={counter} />
        </div>
      </div>
      <div className="relative flex flex-1 flex-col items-center justify-center gap-6 px-6 pb-8 pt-2 landscape:flex-row landscape:gap-12">
        <div className="aspect-square w-[min(86vw,60vh)] rounded-3xl bg-white p-3 shadow-2xl landscape:w-auto landscape:h-[min(78vh,55vw)]">
          {code.data && !isDead ? (
            <QrImage text={code.data.url} label={`QR code à scanner pour valider un passage chez ${name}`} />
          ) : (
            <div className="flex size-full flex-col items-center justify-center gap-3 p-6 text-center text-stone-800" role="status">
              {code.isError || isDead ? (
                <p className="font-semibold">Connexion perdue : le code ne peut pas être renouvelé. Nouvel essai dans quelques secondes…</p>
              ) : (
                <>
                  <span className="size-10 animate-spin rounded-full border-4 border-brand-700 border-t-transparent" aria-hidden="true" />
                  <p className="font-semibold">Préparation du code…</p>
                </>
              )}
            </div>
          )}
        </div>
        <div className="flex max-w-md flex-col items-center gap-4 text-center landscape:items-start landscape:text-left">
          {code.data?.shop.logoUrl ? <img src={code.data.shop.logoUrl} alt="" className="size-16 rounded-2xl bg-white object-cover" /> : null}
          <h1 className="text-3xl font-black leading-tight tracking-tight sm:text-4xl">{name}</h1>
          <p className="text-xl font-semibold">Scannez ce code pour valider votre passage</p>
          <p className="text-base">Avec l'appareil photo de votre téléphone ou le scanner de l'application Fidèle.</p>
          {code.data && !isDead ? <Countdown endsAt={localExpiry(code.data)} foreground={design.foreground} /> : null}
          {code.data?.shop.status === "suspended" ? (
            <p className="rounded-xl px-4 py-2 font-semibold" style={{ background: design.accent, color: readableOn(design.accent) }}>
              Boutique suspendue : les passages ne sont pas crédités.
            </p>
          ) : null}
          {code.isError && code.error instanceof ApiError && code.error.status !== 0 ? (
            <p className="rounded-xl bg-white px-4 py-2 font-semibold text-red-800">{code.error.message}</p>
          ) : null}
        </div>
      </div>
    </div>
  );
}
