import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { formatDate, formatNumber } from "../../../../domain/format.ts";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { Checkbox } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Page } from "../../../components/ui/page.tsx";
import { useMe } from "../../../lib/me.ts";
import { useOpenContests, usePublicContest, useSpin } from "../api/play.ts";
import { authGate } from "../components/contest-card.tsx";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { Wheel } from "../components/wheel.tsx";

function WheelGame({ id }: { id: string }) {
  const contest = usePublicContest(id);
  const me = useMe();
  const play = useSpin();
  const [consent, setConsent] = useState(false);
  const [announced, setAnnounced] = useState<string>("");
  const [wheelStopped, setWheelStopped] = useState(false);
  const result = play.data ?? null;
  // From the tap until the wheel stops on the result.
  const busy = play.isPending || (play.isSuccess && !wheelStopped);
  if (contest.isPending) return <p aria-busy="true">Chargement…</p>;
  if (contest.error) return <LoadError error={contest.error} />;
  const c = contest.data.contest;
  if (c.kind !== "wheel") return <Notice tone="error">Ce jeu est un tirage au sort, pas une roue.</Notice>;
  const slices = [
    ...c.prizes.map((p) => ({ id: p.id, label: p.name, weight: p.oddsBp })),
    { id: "perdu", label: "Perdu", weight: c.losingOddsBp ?? 0 },
  ];
  const played = contest.data.wheel?.played ? contest.data.wheel : null;

  const spin = () => {
    setWheelStopped(false);
    setAnnounced("La roue tourne…");
    play.mutate({ id: c.id, marketingConsent: consent }, { onError: () => setAnnounced("") });
  };
  const stopped = () => {
    setWheelStopped(true);
    if (!result) return;
    setAnnounced(
      result.winning
        ? `Gagné ! Vous remportez « ${result.winning.lotName} ». Code à présenter en boutique : ${result.winning.code}, avant le ${formatDate(result.winning.claimBy)}.`
        : "Perdu cette fois-ci. Retentez votre chance au prochain tour !",
    );
    void play.refresh();
  };

  return (
    <div className="flex flex-col gap-5">
      <p className="text-stone-700 dark:text-stone-300">
        {c.shop.name} · {c.title}
      </p>
      <Wheel slices={slices} target={result?.sliceIndex ?? null} onStopped={stopped} />
      <div
        role="status"
        aria-live="polite"
        className="min-h-12 text-center text-lg font-semibold"
        data-testid="wheel-result"
      >
        {announced}
      </div>
      {play.isError ? <Notice tone="error">{errorText(play.error)}</Notice> : null}
      {c.phase !== "open" ? (
        <Notice>Ce jeu n'est pas ouvert en ce moment.</Notice>
      ) : !me.isPending && !me.data ? (
        <ButtonLink to={authGate(`/jeu-concours-roulette?concours=${c.id}`)}>Se connecter pour jouer</ButtonLink>
      ) : result || played ? (
        <>
          {played && !result ? (
            <p
              className="rounded-xl bg-stone-100 px-4 py-3 text-center font-semibold dark:bg-stone-800"
              data-testid="wheel-played"
            >
              {played.message}
            </p>
          ) : null}
          <ButtonLink to="/jeu-concours" variant="secondary">
            Voir mes gains et les autres jeux
          </ButtonLink>
        </>
      ) : (
        <>
          <Checkbox
            label={`J'accepte de recevoir les offres de ${c.shop.name} (facultatif).`}
            checked={consent}
            onChange={(e) => setConsent(e.target.checked)}
          />
          <Button onClick={spin} isLoading={busy} full>
            Tourner la roue
          </Button>
        </>
      )}
      <section aria-labelledby="odds-title" className="text-sm">
        <h2 id="odds-title" className="font-semibold">
          Chances de gain à chaque tour
        </h2>
        <ul>
          {c.prizes.map((p) => (
            <li key={p.id}>
              {p.name} ({p.valueLabel}) : {formatNumber(p.oddsBp / 100)} %{p.remaining === 0 ? " — épuisé" : ""}
            </li>
          ))}
          <li>Perdu : {formatNumber((c.losingOddsBp ?? 0) / 100)} %</li>
        </ul>
        <p className="mt-2">
          Participation gratuite et sans obligation d'achat ·{" "}
          <Link
            className="font-semibold text-brand-800 underline dark:text-brand-200"
            to={`/jeu-concours?reglement=${c.id}`}
          >
            Règlement
          </Link>
        </p>
      </section>
    </div>
  );
}

function WheelList() {
  const open = useOpenContests(null);
  if (open.isPending) return <p aria-busy="true">Chargement…</p>;
  if (open.error) return <LoadError error={open.error} />;
  const wheels = open.data.contests.filter((c) => c.kind === "wheel");
  if (wheels.length === 0) return <p>Aucune roue n'est ouverte en ce moment. Revenez bientôt !</p>;
  return (
    <ul className="flex flex-col gap-2">
      {wheels.map((w) => (
        <li key={w.id}>
          <ButtonLink to={`/jeu-concours-roulette?concours=${w.id}`} variant="secondary" full>
            {w.title} — {w.shop.name}
          </ButtonLink>
        </li>
      ))}
    </ul>
  );
}

/** /jeu-concours-roulette?concours={id}: the wheel. The server decides; the wheel shows it. */
export default function RoulettePage() {
  const [params] = useSearchParams();
  const id = params.get("concours");
  return (
    <Page title="La roue de la chance" wide>
      {id ? <WheelGame id={id} /> : <WheelList />}
    </Page>
  );
}
