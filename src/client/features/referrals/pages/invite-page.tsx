import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Page } from "../../../components/ui/page.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useMe } from "../../../lib/me.ts";
import { inviteQueryOptions, useAcceptInvite } from "../api/referrals.ts";

/** What the friend does once they accept: nothing is given until a visit is validated at the counter. */
function AfterAccepting({ shopName, slug }: { shopName: string; slug: string }) {
  return (
    <div className="flex flex-col gap-4">
      <Notice tone="success">
        Invitation acceptée. Passez chez {shopName} et faites valider votre premier passage au comptoir : c'est à ce
        moment que votre bienvenue est donnée, et celle de la personne qui vous a invité.
      </Notice>
      <ButtonLink to={`/shop/${slug}`} full>
        Voir la boutique
      </ButtonLink>
    </div>
  );
}

function Invite({ code }: { code: string }) {
  const query = useQuery(inviteQueryOptions(code));
  const me = useMe();
  const accept = useAcceptInvite(code);
  if (query.isError) {
    return (
      <div className="flex flex-col gap-4">
        <Notice tone="error">{errorText(query.error)}</Notice>
        <ButtonLink to="/boutiques" variant="secondary">
          Voir les boutiques
        </ButtonLink>
      </div>
    );
  }
  if (!query.data) return <p role="status">Chargement de l'invitation…</p>;
  const invite = query.data;
  const here = `/parrainage/${code}`;
  return (
    <div className="flex flex-col gap-5">
      <div className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
        <h2 className="text-lg font-semibold">
          {invite.sponsorFirstName} vous invite chez {invite.shop.name}
        </h2>
        {invite.friendGift ? (
          <p className="mt-2">
            Votre bienvenue : <strong>{invite.friendGift}</strong>, après votre premier passage validé en boutique.
          </p>
        ) : null}
        <p className="mt-2 text-sm text-stone-700 dark:text-stone-300">
          Le parrainage est réservé aux nouveaux clients de la boutique, une fois par personne.
        </p>
      </div>
      {invite.accepted || accept.isSuccess ? (
        <AfterAccepting shopName={invite.shop.name} slug={invite.shop.slug} />
      ) : invite.isOwnLink ? (
        <Notice>C'est votre propre lien : partagez-le avec un proche.</Notice>
      ) : me.data ? (
        <>
          {accept.isError ? <Notice tone="error">{errorText(accept.error)}</Notice> : null}
          <Button onClick={() => accept.mutate()} isLoading={accept.isPending} full>
            Accepter l'invitation
          </Button>
        </>
      ) : me.isPending ? null : (
        <div className="flex flex-col gap-3">
          <ButtonLink to={`/signup?redirect=${encodeURIComponent(here)}`} full>
            Créer mon compte
          </ButtonLink>
          <ButtonLink to={`/login?redirect=${encodeURIComponent(here)}`} variant="secondary" full>
            J'ai déjà un compte
          </ButtonLink>
        </div>
      )}
    </div>
  );
}

/** /parrainage/:code: an invitation to a shop, as the friend sees it (issue 28). */
export default function InvitePage() {
  const { code = "" } = useParams();
  return (
    <Page title="Invitation de parrainage">
      <Invite code={code} />
    </Page>
  );
}
