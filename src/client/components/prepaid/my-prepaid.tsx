import { useState } from "react";
import { Button } from "../ui/button.tsx";
import { QrImage } from "../qr/qr-image.tsx";
import { HoldingHistory } from "./holding-history.tsx";
import { type MyHolding, useMyPrepaid } from "./prepaid-api.ts";

/** One bundle or gift card: what is left, until when, and its code for the till (shown on demand). */
function Holding({ holding }: { holding: MyHolding }) {
  const [showCode, setShowCode] = useState(false);
  return (
    <li className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900">
      <p className="text-sm font-medium text-stone-700 dark:text-stone-300">{holding.shop.name}</p>
      <h3 className="text-lg font-semibold">{holding.title}</h3>
      <p className="mt-1 text-2xl font-bold tabular-nums" data-testid="prepaid-balance">
        {holding.balanceLabel}
        <span className="text-base font-medium text-stone-700 dark:text-stone-300"> restant</span>
      </p>
      <p
        className={`mt-1 text-sm ${holding.isExpired ? "font-semibold text-red-800 dark:text-red-300" : "text-stone-700 dark:text-stone-300"}`}
      >
        {holding.isExpired ? `Expiré depuis le ${holding.lastDay}` : `Valable jusqu'au ${holding.lastDay} inclus`}
      </p>
      <div className="mt-2">
        <HoldingHistory history={holding.history} testId="prepaid-history" />
      </div>
      {holding.isExpired ? null : showCode ? (
        <div className="mt-3 flex flex-col items-center gap-2">
          <div className="size-48">
            <QrImage text={holding.qr} label={`QR code de « ${holding.title} »`} />
          </div>
          <p className="font-mono text-xl font-bold tracking-widest">
            <span className="sr-only">Code : </span>
            {holding.code}
          </p>
          <p className="text-center text-sm text-stone-700 dark:text-stone-300">
            Montrez ce code au comptoir : l'équipe débite ce que vous utilisez.
          </p>
          <Button variant="secondary" onClick={() => setShowCode(false)}>
            Masquer le code
          </Button>
        </div>
      ) : (
        <Button className="mt-3" full onClick={() => setShowCode(true)}>
          Utiliser au comptoir<span className="sr-only"> : « {holding.title} »</span>
        </Button>
      )}
    </li>
  );
}

/** The cards page's « Carnets et cartes cadeaux »: nothing at all when the person holds none. */
export function MyPrepaid() {
  const holdings = useMyPrepaid();
  if (!holdings.data || holdings.data.length === 0) return null;
  return (
    <section aria-labelledby="my-prepaid-title" className="flex flex-col gap-3">
      <h2 id="my-prepaid-title" className="text-xl font-bold">
        Carnets et cartes cadeaux
      </h2>
      <ul className="flex flex-col gap-3">
        {holdings.data.map((h) => (
          <Holding key={h.id} holding={h} />
        ))}
      </ul>
    </section>
  );
}
