import { queryOptions, useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { formatDate } from "../../../domain/format.ts";
import { api, unwrap } from "../../lib/api-client.ts";
import { QrImage } from "../qr/qr-image.tsx";

/**
 * Lots I won in contests, with the code to show at the counter and the claim deadline. Shared by /jeu-concours
 * (my wins) and the shopper's cards and rewards (/cartes-de-fidelite), so a win is seen where rewards are.
 */
const getMyContests = () => unwrap(api.contests.mine.$get());
export const myContestsQueryOptions = (enabled = true) =>
  queryOptions({ queryKey: ["contests", "mine"], queryFn: getMyContests, enabled });
type MyWin = Awaited<ReturnType<typeof getMyContests>>["wins"][number];

export function WinCard({ win }: { win: MyWin }) {
  return (
    <li className="flex flex-col gap-2 rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <p className="text-sm font-semibold text-brand-800 dark:text-brand-200">
        {win.shop.name} · {win.contestTitle}
      </p>
      <p className="text-lg font-bold">{win.lotName}</p>
      <p className="font-semibold" data-testid="win-status">
        {win.statusLabel}
      </p>
      {win.status === "to_hand_over" ? (
        <>
          <p className="text-sm">
            Présentez ce code à la boutique avant le <strong>{formatDate(win.claimBy)}</strong> :
          </p>
          <p className="font-mono text-2xl font-bold tracking-widest" data-testid="win-code">
            {win.code}
          </p>
          <div className="size-40">
            <QrImage text={win.qr} label={`QR code du lot ${win.lotName}, code ${win.code}`} />
          </div>
        </>
      ) : win.handedOverAt ? (
        <p className="text-sm">Remis le {formatDate(win.handedOverAt)}.</p>
      ) : null}
    </li>
  );
}

/** Lots still to collect, among my rewards; nothing when there are none. */
export function LotsToCollect() {
  const mine = useQuery(myContestsQueryOptions());
  const waiting = (mine.data?.wins ?? []).filter((w) => w.status === "to_hand_over");
  if (waiting.length === 0) return null;
  return (
    <section aria-labelledby="lots-to-collect" className="flex flex-col gap-3">
      <h2 id="lots-to-collect" className="text-lg font-bold">
        Lots gagnés à retirer
      </h2>
      <ul className="flex flex-col gap-3">
        {waiting.map((w) => (
          <WinCard key={w.id} win={w} />
        ))}
      </ul>
      <Link to="/jeu-concours" className="text-sm font-semibold text-brand-800 underline dark:text-brand-200">
        Tous mes jeux et mes gains
      </Link>
    </section>
  );
}

/**
 * The shopper home's card for each lot won and not yet handed over (issue 25 row 7): « Vous avez gagné … à retirer
 * avant le … », leading to the code in /jeu-concours. Nothing when there is none.
 */
export function WonLotsGlance() {
  const mine = useQuery(myContestsQueryOptions());
  const waiting = (mine.data?.wins ?? []).filter((w) => w.status === "to_hand_over");
  if (waiting.length === 0) return null;
  return (
    <ul className="flex flex-col gap-3" aria-label="Lots gagnés à retirer">
      {waiting.map((w) => (
        <li key={w.id}>
          <Link
            to="/jeu-concours"
            className="block rounded-2xl bg-accent-400/20 p-4 ring-1 ring-accent-400/50 hover:ring-accent-400"
            data-testid="won-lot-card"
          >
            <span className="block font-semibold">
              Vous avez gagné « {w.lotName} » chez {w.shop.name}, à retirer avant le {formatDate(w.claimBy)}
            </span>
            <span className="block text-sm text-stone-700 dark:text-stone-300">
              Voir le code à présenter en boutique
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
