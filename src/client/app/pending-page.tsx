import { useMatches } from "react-router";
import type { RouteMeta } from "../../domain/routes.ts";
import { ButtonLink } from "../components/ui/button.tsx";
import { Page } from "../components/ui/page.tsx";

/** The one shared page for a route whose screen arrives in a later issue. */
export default function PendingPage() {
  const meta = useMatches().at(-1)?.handle as RouteMeta | undefined;
  return (
    <Page title="En préparation" lead={`La page « ${meta?.title ?? "demandée"} » arrive bientôt dans Fidèle.`}>
      <p className="text-stone-700 dark:text-stone-300">
        Elle n'est pas encore disponible dans cette version. Vos cartes et vos points ne sont pas concernés.
      </p>
      <ButtonLink to="/" variant="secondary">
        Retour à l'accueil
      </ButtonLink>
    </Page>
  );
}
