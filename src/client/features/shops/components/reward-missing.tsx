import { useQuery } from "@tanstack/react-query";
import { cardSettingsQueryOptions } from "../../../components/back-office/card-settings.ts";
import { ButtonLink } from "../../../components/ui/button.tsx";

/**
 * The card's settings, always re-read on mount: whether it offers a reward changes on another page, and a card with
 * nothing to exchange must never be called "ready" (issue 25 row 10).
 */
export const useFreshCardSettings = (shopId: string | null) =>
  useQuery({ ...cardSettingsQueryOptions(shopId ?? ""), enabled: Boolean(shopId), staleTime: 0 });

/** Said on the owner's screens while the card offers no reward: customers collect, with nothing to exchange yet. */
export function RewardMissing() {
  return (
    <section
      aria-labelledby="reward-missing-title"
      className="rounded-2xl border border-amber-300 bg-amber-50 p-5 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <h2 id="reward-missing-title" className="font-semibold">
        Il manque une récompense à votre carte
      </h2>
      <p className="mt-1 text-sm">
        Vos clients peuvent déjà cumuler, mais n'ont rien à échanger tant que vous ne proposez pas de récompense (un
        café offert quand la carte est pleine, par exemple).
      </p>
      <div className="mt-3">
        <ButtonLink to="/admin/ajouter-un-reward">Créer ma première récompense</ButtonLink>
      </div>
    </section>
  );
}
