import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { formatDate } from "../../../domain/format.ts";
import { api, errorText, unwrap } from "../../lib/api-client.ts";
import { Button } from "../ui/button.tsx";
import { Notice } from "../ui/notice.tsx";

/**
 * A lot won in a contest, at the counter: found by its code (typed, or read from the QR code "FIDELE-L:…"), handed
 * over once by staff, who are recorded. Shared by the rewards validation screen and the contests pages.
 */
export const lookupLot = (shopId: string, code: string) =>
  unwrap(api.backoffice.shops[":shopId"]["contest-winnings"].lookup.$get({ param: { shopId }, query: { code } })).then(
    (r) => r.winning,
  );
export type CounterLot = Awaited<ReturnType<typeof lookupLot>>;

const handOver = (shopId: string, id: string) =>
  unwrap(api.backoffice.shops[":shopId"]["contest-winnings"][":id"]["hand-over"].$post({ param: { shopId, id } })).then(
    (r) => r.winning,
  );

export function LotHandOver({ shopId, lot, onNext }: { shopId: string; lot: CounterLot; onNext: () => void }) {
  const [current, setCurrent] = useState(lot);
  const give = useMutation({
    mutationFn: () => handOver(shopId, current.id),
    onSuccess: setCurrent,
    // Refused (handed over meanwhile, expired…): the lot as it is now, beside the reason.
    onError: async () => setCurrent(await lookupLot(shopId, current.code).catch(() => current)),
  });
  const done = current.status === "handed_over";
  return (
    <section
      aria-labelledby="lot-title"
      className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800"
    >
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-800 dark:text-brand-200">
        Lot gagné · jeu concours
      </p>
      <h2 id="lot-title" className="text-xl font-bold">
        {current.lotName}
      </h2>
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <dt className="text-stone-600 dark:text-stone-400">Gagnant</dt>
        <dd className="font-semibold">{current.winnerName}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Jeu</dt>
        <dd>{current.contestTitle}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Code</dt>
        <dd className="font-mono text-lg font-bold tracking-widest">{current.code}</dd>
        <dt className="text-stone-600 dark:text-stone-400">À retirer avant le</dt>
        <dd>{formatDate(current.claimBy)}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Statut</dt>
        <dd className="font-semibold" data-testid="lot-status">
          {current.statusLabel}
        </dd>
      </dl>
      {give.isError ? <Notice tone="error">{errorText(give.error)}</Notice> : null}
      {done ? (
        <Notice tone="success">
          Lot remis{current.handedOverByName ? ` par ${current.handedOverByName}` : ""}
          {current.handedOverAt ? ` le ${formatDate(current.handedOverAt)}` : ""}.
        </Notice>
      ) : null}
      {current.status === "to_hand_over" ? (
        <Button onClick={() => give.mutate()} isLoading={give.isPending} full>
          Remettre le lot
        </Button>
      ) : null}
      <Button variant="secondary" onClick={onNext} full>
        Code suivant
      </Button>
    </section>
  );
}
