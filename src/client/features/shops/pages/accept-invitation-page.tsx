import { asShopRoleFr } from "../../../../domain/roles.ts";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { ErrorView } from "../../../components/errors/error-view.tsx";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import { useMe } from "../../../lib/me.ts";
import { useAnswerInvitation } from "../api/answer-invitation.ts";
import { useInvitation } from "../api/get-invitation.ts";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { formatDate } from "../../../../domain/format.ts";

const STATUS_TEXT: Record<string, string> = {
  accepted: "Cette invitation a déjà été acceptée.",
  rejected: "Cette invitation a été refusée.",
  canceled: "Cette invitation a été annulée par la boutique.",
  expired: "Cette invitation a expiré : demandez au responsable de la boutique de vous en envoyer une nouvelle.",
};

function SignedOut({ token }: { token: string }) {
  const back = encodeURIComponent(`/accept-invitation/${token}`);
  // The e-mail's link names the invited address: sign-in and sign-up start with it (issue 25 row 16).
  const [params] = useSearchParams();
  const invited = params.get("email");
  const email = invited ? `&email=${encodeURIComponent(invited)}` : "";
  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-5 px-5 pb-10 pt-8">
      <h1 className="text-2xl font-bold tracking-tight">Rejoindre l'équipe d'une boutique</h1>
      <p className="text-stone-700 dark:text-stone-300">
        Vous avez reçu une invitation pour travailler avec une boutique sur Fidèle. Connectez-vous avec l'adresse e-mail
        qui a reçu l'invitation, ou créez votre compte : vous reviendrez ici pour l'accepter.
      </p>
      <ButtonLink to={`/login?redirect=${back}${email}`} full>
        Se connecter
      </ButtonLink>
      <ButtonLink to={`/signup?redirect=${back}${email}`} variant="secondary" full>
        Créer mon compte
      </ButtonLink>
    </div>
  );
}

function SignedIn({ token, email }: { token: string; email: string }) {
  const navigate = useNavigate();
  const invitation = useInvitation(token, true);
  const { accept, reject } = useAnswerInvitation(token);
  const busy = accept.isPending || accept.isSuccess || reject.isPending;

  if (invitation.isPending) {
    return (
      <div className="mx-auto max-w-md px-5 pt-8">
        <Skeleton label="Chargement de l'invitation…" />
      </div>
    );
  }
  if (invitation.isError) {
    const status = invitation.error instanceof ApiError ? invitation.error.status : 500;
    return (
      <ErrorView
        status={status === 404 ? 404 : status}
        title="Invitation introuvable"
        message={errorText(invitation.error, "Réessayez dans un instant.")}
      />
    );
  }
  const inv = invitation.data;

  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-5 px-5 pb-10 pt-8">
      <div className="rounded-3xl bg-brand-900 p-6 text-white shadow-lg">
        <p className="text-sm uppercase tracking-widest text-brand-100">Invitation</p>
        <h1 className="mt-1 text-2xl font-bold">Rejoindre {inv.shop.name}</h1>
        <p className="mt-2 text-brand-50">
          {inv.inviterName} vous invite à rejoindre l'équipe de {inv.shop.name}{" "}
          <strong>{asShopRoleFr(inv.role)}</strong>.
        </p>
        {inv.status === "pending" ? (
          <p className="mt-2 text-sm text-brand-100">Valable jusqu'au {formatDate(inv.expiresAt)}.</p>
        ) : null}
      </div>
      {reject.isSuccess ? (
        <Notice tone="info">Invitation refusée. Vous pouvez fermer cette page.</Notice>
      ) : inv.status !== "pending" ? (
        <Notice tone="info">{STATUS_TEXT[inv.status] ?? "Cette invitation n'est plus valable."}</Notice>
      ) : !inv.isForMe ? (
        <Notice tone="error">
          Cette invitation a été envoyée à une autre adresse que la vôtre ({email}). Déconnectez-vous et connectez-vous
          avec l'adresse qui l'a reçue.
        </Notice>
      ) : (
        <>
          <p className="text-stone-700 dark:text-stone-300">
            Vous pourrez afficher le code du comptoir et créditer les passages des clients. Vos cartes de fidélité
            personnelles ne changent pas.
          </p>
          {accept.isError || reject.isError ? (
            <Notice tone="error">{errorText(accept.error ?? reject.error)}</Notice>
          ) : null}
          <Button
            full
            onClick={() => {
              reject.reset();
              accept.mutate(undefined, { onSuccess: () => navigate("/manager", { replace: true }) });
            }}
            isLoading={accept.isPending || accept.isSuccess}
            disabled={busy}
          >
            Accepter l'invitation
          </Button>
          <Button
            full
            variant="secondary"
            onClick={() => {
              accept.reset();
              reject.mutate();
            }}
            isLoading={reject.isPending}
            disabled={busy}
          >
            Refuser
          </Button>
        </>
      )}
      <Link to="/" className="self-center text-sm font-semibold text-brand-800 underline dark:text-brand-200">
        Retour à l'accueil
      </Link>
    </div>
  );
}

/** /accept-invitation/{id}: signed out, sign in (and come back); signed in, accept and land on /manager. */
export default function AcceptInvitationPage() {
  const { token = "" } = useParams();
  const me = useMe();
  if (me.isPending) return null;
  if (!me.data) return <SignedOut token={token} />;
  return <SignedIn token={token} email={me.data.user.email} />;
}
