import { Link } from "react-router";
import { APP_DESIGN } from "../../../components/loyalty/loyalty-card.tsx";
import { StampIcon } from "../../../components/loyalty/stamp-icon.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { useCounterCode } from "../api/counter-code.ts";
import { CodeSquare, Countdown, ShortCode, SuspendedCounter, useWakeLock } from "../components/counter-code-panel.tsx";
import { CounterShopPicker, useCounterShop } from "../components/counter-shop.tsx";

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
      <Link
        to="/manager"
        className="shrink-0 rounded-lg px-3 py-2 text-sm font-semibold underline-offset-4 hover:underline"
      >
        ← Comptoir
      </Link>
      {/* Narrower than the screen at 320 px (it pushed the page 29 px sideways at its fixed 224 px). */}
      <div className="min-w-0 max-w-64 flex-1">
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
  const counterCode = useCounterCode(shopId);
  const { code: current, ...code } = counterCode;
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
    return <SuspendedCounter shopName={name} topBar={<CounterTopBar counter={counter} />} />;
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
        <CodeSquare
          counterCode={counterCode}
          shopName={name}
          className="w-[min(86vw,60vh)] landscape:h-[min(78vh,55vw)] landscape:w-auto"
        />
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
