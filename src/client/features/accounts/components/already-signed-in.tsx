import { ButtonLink, Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Page } from "../../../components/ui/page.tsx";
import type { Me } from "../../../lib/me.ts";
import { usePageTitle } from "../../../app/page-title.ts";
import { useSignOutInPlace } from "../api/sign-out.ts";

/** /login while a session is open (issue 25 row 16): which account, a way on, a sign-out. */
export default function AlreadySignedIn({ me, to }: { me: Me; to: string }) {
  const signOut = useSignOutInPlace();
  usePageTitle("Déjà connecté(e)");
  return (
    <Page title="Déjà connecté(e)">
      <Notice tone="info">
        Vous êtes connecté(e) avec le compte <strong className="break-all">{me.user.email}</strong>.
      </Notice>
      <ButtonLink to={to} replace full>
        {to === "/admin" ? "Aller à mon espace commerçant" : to === "/" ? "Aller à l'accueil" : "Continuer"}
      </ButtonLink>
      <Button variant="secondary" full isLoading={signOut.isPending} onClick={() => signOut.mutate()}>
        Se déconnecter pour changer de compte
      </Button>
    </Page>
  );
}
