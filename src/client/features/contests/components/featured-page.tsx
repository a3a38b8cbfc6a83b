import type { FeaturedSlot } from "../../../../domain/contests/schemas.ts";
import { Page } from "../../../components/ui/page.tsx";
import { useFeatured } from "../api/play.ts";
import { ContestCard } from "./contest-card.tsx";
import { LoadError } from "./contests-frame.tsx";
import { Verification } from "./verification.tsx";

/**
 * A featured contest page: the contest the platform admin pinned to this address, or, with none pinned, a French
 * message and the contests open now.
 */
export function FeaturedPage({ slot, title }: { slot: FeaturedSlot; title: string }) {
  const featured = useFeatured(slot);
  return (
    <Page title={title} wide>
      {featured.isPending ? (
        <p aria-busy="true">Chargement…</p>
      ) : featured.error ? (
        <LoadError error={featured.error} />
      ) : featured.data.pinned ? (
        <>
          <ContestCard contest={featured.data.pinned.contest} headingLevel={2} />
          {featured.data.pinned.verification ? (
            <Verification
              contestId={featured.data.pinned.contest.id}
              verification={featured.data.pinned.verification}
            />
          ) : null}
        </>
      ) : (
        <>
          <p className="text-stone-700 dark:text-stone-300">
            Aucun jeu n'est mis en avant ici pour le moment. Voici les jeux ouverts en ce moment :
          </p>
          {featured.data.open.length === 0 ? (
            <p>Aucun jeu concours n'est ouvert en ce moment. Revenez bientôt !</p>
          ) : (
            featured.data.open.map((c) => <ContestCard key={c.id} contest={c} headingLevel={2} />)
          )}
        </>
      )}
    </Page>
  );
}
