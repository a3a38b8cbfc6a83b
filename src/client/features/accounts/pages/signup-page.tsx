import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { PASSWORD_MAX, PASSWORD_MIN, safeRedirect, signUpSchema } from "../../../../domain/schemas/accounts.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field, PasswordField } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Page } from "../../../components/ui/page.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { resendConfirmation } from "../api/resend-confirmation.ts";
import { signUp } from "../api/sign-up.ts";
import { BadgeIcon } from "../components/badge-icon.tsx";
import { useForm } from "../../../lib/use-form.ts";

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
      <form onSubmit={form.handleSubmit} className="flex flex-col gap-4" noValidate>
        {form.formError ? <Notice tone="error">{form.formError}</Notice> : null}
        <Field
          label="Adresse e-mail"
          name="email"
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          defaultValue={email}
          error={form.fieldErrors.email}
        />
        <PasswordField
          label="Mot de passe"
          name="password"
          autoComplete="new-password"
          maxLength={PASSWORD_MAX}
          hint={`Au moins ${PASSWORD_MIN} caractères. Une courte phrase est facile à retenir et difficile à deviner.`}
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
      </form>
      <p className="text-center text-sm text-stone-700 dark:text-stone-300">
        Déjà un compte ?{" "}
        <Link
          to={withRedirect("/login", redirect)}
          className="font-semibold text-brand-800 underline dark:text-brand-200"
        >
          Se connecter
        </Link>
      </p>
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
  const [resent, setResent] = useState<"idle" | "sending" | "sent">("idle");
  const [error, setError] = useState<string | null>(null);
  const resend = async () => {
    setResent("sending");
    setError(null);
    try {
      await resendConfirmation(email, redirect);
      setResent("sent");
    } catch (e) {
      setResent("idle");
      setError(e instanceof ApiError ? e.message : "Une erreur inattendue est survenue. Réessayez.");
    }
  };
  return (
    <Page title="Vérifiez vos e-mails">
      <div className="flex flex-col items-center gap-4 rounded-2xl border border-stone-200 bg-white p-6 text-center shadow-sm dark:border-stone-800 dark:bg-stone-900">
        <BadgeIcon name="mail" />
        <p className="text-stone-800 dark:text-stone-200">
          Nous avons envoyé un lien de confirmation à <strong className="break-all">{email}</strong>.
        </p>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Ouvrez-le sur ce téléphone pour activer votre compte. Le lien est valable 24 heures. Pensez à regarder dans
          les courriers indésirables.
        </p>
      </div>
      {resent === "sent" ? <Notice tone="success">Un nouveau lien vient d'être envoyé à {email}.</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      <Button variant="secondary" full isLoading={resent === "sending"} onClick={resend}>
        Renvoyer le lien
      </Button>
      <Button variant="ghost" full onClick={onChangeEmail}>
        Modifier l'adresse e-mail
      </Button>
      <p className="text-center text-sm text-stone-700 dark:text-stone-300">
        Déjà confirmé ?{" "}
        <Link
          to={withRedirect("/login", redirect)}
          className="font-semibold text-brand-800 underline dark:text-brand-200"
        >
          Se connecter
        </Link>
      </p>
    </Page>
  );
}
