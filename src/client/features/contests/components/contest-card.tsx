import { useState } from "react";
import { Link } from "react-router";
import { formatDateTime, formatNumber, plural } from "../../../../domain/format.ts";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { Checkbox } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { useMe } from "../../../lib/me.ts";
import { type ContestSummary, useEnterDraw } from "../api/play.ts";
import { errorText } from "../../../lib/api-client.ts";

/** Where a signed-out person goes to take part: the sign-in gate, then back here. */
export const authGate = (back: string) => `/jeux-concours-auth?redirect=${encodeURIComponent(back)}`;

/**
 * Taking part in a draw: one button. Consent to the shop's offers is a separate box, unticked, never a condition
 * (RGPD art. 7(4)).
 */
function EnterDraw({ contest }: { contest: ContestSummary }) {
  const me = useMe();
  const enter = useEnterDraw();
  const [consent, setConsent] = useState(false);
  const left = contest.entriesPerPerson - contest.myEntries;
  if (!me.isPending && !me.data)
    return <ButtonLink to={authGate(`/jeu-concours?concours=${contest.id}`)}>Se connecter pour participer</ButtonLink>;
  return (
    <div className="flex flex-col gap-3">
      {enter.isSuccess ? (
        <Notice tone="success">C'est noté : vous participez au tirage. Bonne chance !</Notice>
      ) : enter.isError ? (
        <Notice tone="error">{errorText(enter.error)}</Notice>
      ) : null}
      {left > 0 ? (
        <>
          <Checkbox
            label={`J'accepte de recevoir les offres de ${contest.shop.name} (facultatif).`}
            checked={consent}
            onChange={(e) => setConsent(e.target.checked)}
          />
          <Button
            onClick={() => enter.mutate({ id: contest.id, marketingConsent: consent })}
            isLoading={enter.isPending}
          >
            {contest.myEntries > 0 ? "Participer encore" : "Participer au tirage"}
          </Button>
        </>
      ) : (
        <p className="font-semibold text-brand-800 dark:text-brand-200">Vous participez à ce tirage.</p>
      )}
    </div>
  );
}

export function ContestCard({ contest, headingLevel = 3 }: { contest: ContestSummary; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="flex flex-col gap-3 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900">
      <div>
        <p className="text-sm font-semibold text-brand-800 dark:text-brand-200">
          {contest.shop.name} · {contest.kind === "draw" ? "Tirage au sort" : "Roue de la chance"}
          {contest.isMyShop ? " · ma boutique" : ""}
          {contest.distanceKm !== null ? ` · ${formatNumber(Math.round(contest.distanceKm))} km` : ""}
        </p>
        <Heading className="text-lg font-bold">{contest.title}</Heading>
        {contest.description ? <p className="text-stone-700 dark:text-stone-300">{contest.description}</p> : null}
      </div>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        {contest.phaseLabel} · jusqu'au {formatDateTime(contest.endsAt)} · {contest.eligibilityLabel}
      </p>
      <ul className="text-sm">
        {contest.prizes.map((p) => (
          <li key={p.id}>
            <span aria-hidden="true">🎁 </span>
            {p.name} ({p.valueLabel})
            {contest.kind === "draw"
              ? ` × ${formatNumber(p.quantity)}`
              : ` — ${formatNumber(p.oddsBp / 100)} % de chances`}
          </li>
        ))}
      </ul>
      <p className="text-sm font-semibold">Participation gratuite et sans obligation d'achat.</p>
      {contest.phase === "open" ? (
        contest.kind === "draw" ? (
          <EnterDraw contest={contest} />
        ) : (
          <ButtonLink to={`/jeu-concours-roulette?concours=${contest.id}`}>Tourner la roue</ButtonLink>
        )
      ) : null}
      <p className="flex flex-wrap gap-4 text-sm font-semibold">
        <Link className="text-brand-800 underline dark:text-brand-200" to={`/jeu-concours?concours=${contest.id}`}>
          Détails{contest.kind === "draw" ? " et vérification du tirage" : ""}
        </Link>
        <Link className="text-brand-800 underline dark:text-brand-200" to={`/jeu-concours?reglement=${contest.id}`}>
          Règlement
        </Link>
      </p>
      {contest.myEntries > 0 && contest.kind === "draw" ? (
        <p className="text-sm text-stone-700 dark:text-stone-300">
          Mes participations : {plural(contest.myEntries, "ticket", "tickets")}
        </p>
      ) : null}
    </article>
  );
}
