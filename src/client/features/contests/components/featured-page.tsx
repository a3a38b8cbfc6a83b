import type { FeaturedSlot } from "../../../../domain/contests/schemas.ts";
import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Page } from "../../../components/ui/page.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { useMe } from "../../../lib/me.ts";
import { useFeatured, useOpenContests, usePinFeatured } from "../api/play.ts";
import { ContestCard } from "./contest-card.tsx";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { Verification } from "./verification.tsx";

/** For the platform admin: which open contest this page shows. */
function PinControl({ slot, pinnedId }: { slot: FeaturedSlot; pinnedId: string | null }) {
  const open = useOpenContests(null);
  const pin = usePinFeatured(slot);
  const [choice, setChoice] = useState(pinnedId ?? "");

  return (
    <section
      aria-labelledby="pin-title"
      className="flex flex-col gap-3 rounded-2xl border border-dashed border-stone-300 p-4 dark:border-stone-700"
    >
      <h2 id="pin-title" className="font-semibold">
        Administration : jeu mis en avant
      </h2>
      <SelectField label="Jeu affiché sur cette page" value={choice} onValue={setChoice}>
        <option value="">Aucun (liste des jeux ouverts)</option>
        {(open.data?.contests ?? []).map((c) => (
          <option key={c.id} value={c.id}>
            {c.title} — {c.shop.name}
          </option>
        ))}
      </SelectField>
      {pin.isSuccess ? (
        <Notice tone="success">
          {pin.variables ? "Jeu mis en avant sur cette page." : "Plus aucun jeu mis en avant ici."}
        </Notice>
      ) : pin.isError ? (
        <Notice tone="error">{errorText(pin.error)}</Notice>
      ) : null}
      <Button variant="secondary" onClick={() => pin.mutate(choice || null)} isLoading={pin.isPending}>
        Enregistrer
      </Button>
    </section>
  );
}

/**
 * A featured contest page: the contest the platform admin pinned to this address, or, with none pinned, a French
 * message and the contests open now.
 */
export function FeaturedPage({ slot, title }: { slot: FeaturedSlot; title: string }) {
  const featured = useFeatured(slot);
  const me = useMe();
  return (
    <Page title={title} wide>
      {me.data?.user.isAdmin && featured.data ? (
        <PinControl slot={slot} pinnedId={featured.data.pinned?.contest.id ?? null} />
      ) : null}
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
