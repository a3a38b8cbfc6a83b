import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { safeRedirect, signUpSchema } from "../../../../domain/schemas/accounts.ts";
import { Button } from "../../../components/ui/button.tsx";
import { EmailField } from "../../../components/ui/field.tsx";
import { NewPasswordField } from "../components/password-fields.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Page } from "../../../components/ui/page.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { resendConfirmation } from "../api/resend-confirmation.ts";
import { signUp } from "../api/sign-up.ts";
import { GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { useForm } from "../../../lib/use-form.ts";
import { Form } from "../../../components/ui/form.tsx";
import { OtherWayLink } from "../components/other-way-link.tsx";

const withRedirect = (path: string, redirect: string) =>
  redirect !== "/" ? `${path}?redirect=${encodeURIComponent(redirect)}` : path;

export default function SignupPage() {
  const [params] = useSearchParams();
  const redirect = safeRedirect(params.get("redirect"));
  // An invitation's link passes the invited address on (issue 25 row 16).
  const [email, setEmail] = useState(params.get("email") ?? "");
  const [isSent, setSent] = useState(false);
  const form = useForm(signUpSchema, async (values) => {
    await signUp({ ...values, redirect });
    setEmail(values.email);
    setSent(true);
  });

  if (isSent) return <CheckEmail email={email} redirect={redirect} onChangeEmail={() => setSent(false)} />;

  return (
    <Page title="Créer un compte" lead="Gratuit, en moins d'une minute. Vos cartes de fidélité vous suivent partout.">
      <Form form={form}>
        <EmailField defaultValue={email} error={form.fieldErrors.email} />
        <NewPasswordField
          label="Mot de passe"
          name="password"
          advice="Une courte phrase est facile à retenir et difficile à deviner."
          error={form.fieldErrors.password}
        />
        <Button type="submit" full isLoading={form.isSubmitting}>
          Créer mon compte
        </Button>
        <p className="text-xs leading-relaxed text-stone-600 dark:text-stone-400">
          En créant un compte, vous acceptez les{" "}
          <Link to="/cgu" className="underline">
            conditions générales d'utilisation
          </Link>{" "}
          et la{" "}
          <Link to="/politiques-de-confidentialite" className="underline">
            politique de confidentialité
          </Link>
          .
        </p>
      </Form>
      <OtherWayLink question="Déjà un compte ?" to={withRedirect("/login", redirect)} label="Se connecter" />
    </Page>
  );
}

/** After sign-up: the same screen whether or not the address already had an account. */
function CheckEmail({
  email,
  redirect,
  onChangeEmail,
}: {
  email: string;
  redirect: string;
  onChangeEmail: () => void;
}) {
  const resend = useMutation({ mutationFn: () => resendConfirmation(email, redirect) });
  return (
    <Page title="Vérifiez vos e-mails">
      <div className="flex flex-col items-center gap-4 rounded-2xl border border-stone-200 bg-white p-6 text-center shadow-sm dark:border-stone-800 dark:bg-stone-900">
        <GlyphBadge name="mail" />
        <p className="text-stone-800 dark:text-stone-200">
          Nous avons envoyé un lien de confirmation à <strong className="break-all">{email}</strong>.
        </p>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Ouvrez-le sur ce téléphone pour activer votre compte. Le lien est valable 24 heures. Pensez à regarder dans
          les courriers indésirables.
        </p>
      </div>
      {resend.isSuccess ? <Notice tone="success">Un nouveau lien vient d'être envoyé à {email}.</Notice> : null}
      {resend.isError ? <Notice tone="error">{errorText(resend.error)}</Notice> : null}
      <Button variant="secondary" full isLoading={resend.isPending} onClick={() => resend.mutate()}>
        Renvoyer le lien
      </Button>
      <Button variant="ghost" full onClick={onChangeEmail}>
        Modifier l'adresse e-mail
      </Button>
      <OtherWayLink question="Déjà confirmé ?" to={withRedirect("/login", redirect)} label="Se connecter" />
    </Page>
  );
}
