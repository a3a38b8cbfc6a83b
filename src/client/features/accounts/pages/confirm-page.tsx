import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { useSearchParams } from "react-router";
import { z } from "zod";
import { emailSchema, safeRedirect } from "../../../../domain/schemas/accounts.ts";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { EmailField } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Page } from "../../../components/ui/page.tsx";
import { meQueryOptions } from "../../../lib/me.ts";
import { useForm } from "../../../lib/use-form.ts";
import { resendConfirmation } from "../api/resend-confirmation.ts";
import { GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { Form } from "../../../components/ui/form.tsx";
import { OtherWayLink } from "../components/other-way-link.tsx";

/** better-auth's error codes on a bad confirmation link (`/confirm?error=…`). */
const LINK_ERRORS: Record<string, { title: string; text: string }> = {
  TOKEN_EXPIRED: {
    title: "Ce lien a expiré",
    text: "Un lien de confirmation reste valable 24 heures. Demandez-en un nouveau ci-dessous : il arrivera dans quelques instants.",
  },
  INVALID_TOKEN: {
    title: "Ce lien n'est pas valable",
    text: "Il a peut-être été mal copié ou coupé par votre messagerie. Demandez un nouveau lien ci-dessous.",
  },
  MISSING_LINK: {
    title: "Ouvrez le lien reçu par e-mail",
    text: "Cette page confirme votre adresse quand vous ouvrez le lien de l'e-mail reçu après votre inscription. Ouvrez ce lien, ou demandez-en un nouveau ci-dessous.",
  },
  INVALID_USER: {
    title: "Un autre compte est connecté",
    text: "Ce lien concerne un autre compte que celui connecté sur ce téléphone. Déconnectez-vous, puis ouvrez de nouveau le lien reçu par e-mail.",
  },
};
const UNKNOWN_ERROR = {
  title: "Confirmation impossible",
  text: "Ce lien ne correspond à aucun compte en attente de confirmation. Demandez un nouveau lien ci-dessous.",
};

const resendSchema = z.object({ email: emailSchema });

/** Landing of the confirmation link, after better-auth has checked it (and signed the person in). */
export default function ConfirmPage() {
  const [params] = useSearchParams();
  const error = params.get("error");
  const redirect = safeRedirect(params.get("redirect"));
  const { data: me } = useQuery(meQueryOptions());

  if (error) return <LinkError error={error} redirect={redirect} />;
  // Opened without the e-mail's link (the link lands here with ?from=email): nothing was confirmed.
  if (!me && params.get("from") !== "email") return <LinkError error="MISSING_LINK" redirect={redirect} />;

  if (!me) {
    // A link opened twice: the address is confirmed, but only the first visit signs in.
    return (
      <Page title="Adresse confirmée">
        <StateCard
          icon="check"
          tone="success"
          text="Votre adresse e-mail est déjà confirmée. Connectez-vous pour continuer."
        />
        <ButtonLink to={redirect !== "/" ? `/login?redirect=${encodeURIComponent(redirect)}` : "/login"} full>
          Se connecter
        </ButtonLink>
      </Page>
    );
  }

  const next = me.profile.isComplete
    ? redirect
    : `/create-profil${redirect !== "/" ? `?redirect=${encodeURIComponent(redirect)}` : ""}`;
  return (
    <Page title="Bienvenue sur Fidèle !">
      <StateCard
        icon="check"
        tone="success"
        text={
          <>
            Votre adresse <strong className="break-all">{me.user.email}</strong> est confirmée et vous êtes connecté(e).
          </>
        }
      />
      {me.profile.isComplete ? null : (
        <p className="text-stone-700 dark:text-stone-300">
          Encore une étape : dites-nous comment vous appeler, pour que vos commerçants vous reconnaissent.
        </p>
      )}
      <ButtonLink to={next} replace full>
        {me.profile.isComplete ? "Continuer" : "Compléter mon profil"}
      </ButtonLink>
    </Page>
  );
}

function StateCard({ icon, tone, text }: { icon: "check" | "alert"; tone: "success" | "warning"; text: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-4 rounded-2xl border border-stone-200 bg-white p-6 text-center shadow-sm dark:border-stone-800 dark:bg-stone-900">
      <GlyphBadge name={icon} tone={tone} />
      <p className="text-stone-800 dark:text-stone-200">{text}</p>
    </div>
  );
}

function LinkError({ error, redirect }: { error: string; redirect: string }) {
  const explanation = LINK_ERRORS[error] ?? UNKNOWN_ERROR;
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm(resendSchema, async ({ email }) => {
    await resendConfirmation(email, redirect);
    setSentTo(email);
  });
  return (
    <Page title={explanation.title}>
      <StateCard icon="alert" tone="warning" text={explanation.text} />
      {sentTo ? (
        <Notice tone="success">
          Si un compte en attente de confirmation existe pour {sentTo}, un nouveau lien vient de lui être envoyé.
        </Notice>
      ) : (
        <Form form={form} submit="Recevoir un nouveau lien">
          <EmailField error={form.fieldErrors.email} />
        </Form>
      )}
      <OtherWayLink question="Adresse déjà confirmée ?" to="/login" label="Se connecter" />
    </Page>
  );
}
