import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { WinCard } from "../../../components/contests/won-lots.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Page } from "../../../components/ui/page.tsx";
import { useMe } from "../../../lib/me.ts";
import { useMyContests, useOpenContests, usePublicContest } from "../api/play.ts";
import { ContestCard } from "../components/contest-card.tsx";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { RulesView } from "../components/rules-view.tsx";
import { Verification } from "../components/verification.tsx";

function Mine() {
  const me = useMe();
  const mine = useMyContests(Boolean(me.data));
  if (!me.data) return null;
  if (mine.isPending) return <p aria-busy="true">Chargement…</p>;
  if (mine.error) return <LoadError error={mine.error} />;
  return (
    <>
      <section aria-labelledby="wins-title" className="flex flex-col gap-3">
        <h2 id="wins-title" className="text-xl font-bold">
          Mes gains
        </h2>
        {mine.data.wins.length === 0 ? (
          <p className="text-stone-700 dark:text-stone-300">Pas encore de lot gagné. Bonne chance !</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {mine.data.wins.map((w) => (
              <WinCard key={w.id} win={w} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="entries-title" className="flex flex-col gap-2">
        <h2 id="entries-title" className="text-xl font-bold">
          Mes participations
        </h2>
        {mine.data.entries.length === 0 ? (
          <p className="text-stone-700 dark:text-stone-300">Vous n'avez encore participé à aucun jeu.</p>
        ) : (
          <ul className="flex flex-col gap-1">
            {mine.data.entries.map((e) => (
              <li key={e.contestId}>
                <Link
                  className="font-semibold text-brand-800 underline dark:text-brand-200"
                  to={`/jeu-concours?concours=${e.contestId}`}
                >
                  {e.title}
                </Link>{" "}
                — {e.shopName} · {e.phaseLabel.toLowerCase()}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function OpenList() {
  const [near, setNear] = useState<{ lat: number; lng: number } | null>(null);
  const [locating, setLocating] = useState(false);
  const open = useOpenContests(near);
  const locate = () => {
    if (!navigator.geolocation) return;
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (p) => {
        setNear({ lat: p.coords.latitude, lng: p.coords.longitude });
        setLocating(false);
      },
      () => setLocating(false),
      { timeout: 10_000 },
    );
  };
  return (
    <section aria-labelledby="open-title" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="open-title" className="text-xl font-bold">
          Jeux ouverts
        </h2>
        {near ? null : (
          <Button variant="ghost" onClick={locate} isLoading={locating}>
            Autour de moi
          </Button>
        )}
      </div>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        Ceux de mes boutiques d'abord, puis les plus proches.
      </p>
      {open.isPending ? (
        <p aria-busy="true">Chargement…</p>
      ) : open.error ? (
        <LoadError error={open.error} />
      ) : open.data.contests.length === 0 ? (
        <p>Aucun jeu concours n'est ouvert en ce moment. Revenez bientôt !</p>
      ) : (
        open.data.contests.map((c) => <ContestCard key={c.id} contest={c} />)
      )}
    </section>
  );
}

function ContestDetail({ id }: { id: string }) {
  const contest = usePublicContest(id);
  if (contest.isPending) return <Page title="Jeu concours">{<p aria-busy="true">Chargement…</p>}</Page>;
  if (contest.error)
    return (
      <Page title="Jeu concours">
        <LoadError error={contest.error} />
      </Page>
    );
  const { contest: c, verification } = contest.data;
  return (
    <Page title={c.title} lead={`${c.shop.name} · ${c.kind === "draw" ? "tirage au sort" : "roue de la chance"}`} wide>
      <ContestCard contest={c} headingLevel={2} />
      {verification ? <Verification contestId={c.id} verification={verification} /> : null}
    </Page>
  );
}

/**
 * /jeu-concours: the contests I can enter now (my shops first, then nearby), my entries, my wins. With
 * ?concours={id}, a contest's public page (and its draw's proof); with ?reglement={id}, its règlement — a stable
 * public address from the moment the contest is scheduled.
 */
export default function ContestsPage() {
  const [params] = useSearchParams();
  const contestId = params.get("concours");
  const rulesId = params.get("reglement");
  if (rulesId) {
    const version = Number(params.get("version")) || null;
    return (
      <div className="mx-auto w-full max-w-3xl px-5 pb-8 pt-6">
        <RulesView contestId={rulesId} version={version} />
      </div>
    );
  }
  if (contestId) return <ContestDetail id={contestId} />;
  return (
    <Page
      title="Jeux concours"
      lead="Tentez votre chance chez vos commerçants : c'est gratuit, sans obligation d'achat."
      wide
    >
      <Mine />
      <OpenList />
    </Page>
  );
}
