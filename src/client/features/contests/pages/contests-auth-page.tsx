import { useSearchParams } from "react-router";
import { safeRedirect } from "../../../../domain/schemas/accounts.ts";
import { SignInGate } from "../../../components/sign-in-gate.tsx";

/**
 * /jeux-concours-auth?redirect=/jeu-concours…: the sign-in gate of contests. Sign in or create an account, then
 * straight back to the contest (as /scanner-auth does for scans).
 */
export default function ContestsAuthPage() {
  const [params] = useSearchParams();
  return (
    <SignInGate
      redirect={safeRedirect(params.get("redirect"), "/jeu-concours")}
      top={
        <div className="flex flex-col items-center gap-3 text-center">
          <span className="text-5xl" aria-hidden="true">
            🎁
          </span>
          <h1 className="text-2xl font-bold tracking-tight">Connectez-vous pour jouer</h1>
          <p className="text-stone-700 dark:text-stone-300">
            Les jeux concours de vos commerçants sont gratuits et sans obligation d'achat. Connectez-vous ou créez votre
            compte gratuit : vous reviendrez au jeu aussitôt après.
          </p>
        </div>
      }
    >
      <p className="text-sm text-stone-700 dark:text-stone-300">
        Pour participer, votre adresse e-mail doit être confirmée : c'est ce qui garantit une participation par
        personne.
      </p>
    </SignInGate>
  );
}
