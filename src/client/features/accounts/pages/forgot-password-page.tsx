import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { z } from "zod";
import { emailSchema } from "../../../../domain/schemas/accounts.ts";
import { Button } from "../../../components/ui/button.tsx";
import { EmailField } from "../../../components/ui/field.tsx";
import { Page } from "../../../components/ui/page.tsx";
import { authClient } from "../../../lib/auth-client.ts";
import { useForm } from "../../../lib/use-form.ts";
import { GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { Form } from "../../../components/ui/form.tsx";

const schema = z.object({ email: emailSchema });

/** Asks for a reset link. The answer is the same whether the address has an account or not. */
export default function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm(schema, async ({ email }) => {
    await authClient.requestPasswordReset(email);
    setSentTo(email);
  });

  if (sentTo) {
    return (
      <Page title="Vérifiez vos e-mails">
        <div className="flex flex-col items-center gap-4 rounded-2xl border border-stone-200 bg-white p-6 text-center shadow-sm dark:border-stone-800 dark:bg-stone-900">
          <GlyphBadge name="mail" />
          <p className="text-stone-800 dark:text-stone-200">
            Si un compte existe pour <strong className="break-all">{sentTo}</strong>, vous allez recevoir un lien pour
            choisir un nouveau mot de passe.
          </p>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Le lien est valable une heure. Pensez à regarder dans les courriers indésirables.
          </p>
        </div>
        <Button variant="secondary" full onClick={() => setSentTo(null)}>
          Essayer une autre adresse
        </Button>
        <Link to="/login" className="text-center text-sm font-semibold text-brand-800 underline dark:text-brand-200">
          Retour à la connexion
        </Link>
      </Page>
    );
  }

  return (
    <Page
      title="Mot de passe oublié"
      lead="Indiquez l'adresse de votre compte : nous vous enverrons un lien pour choisir un nouveau mot de passe."
    >
      <Form form={form} submit="Recevoir le lien">
        <EmailField defaultValue={params.get("email") ?? ""} error={form.fieldErrors.email} />
      </Form>
      <Link to="/login" className="text-center text-sm font-semibold text-brand-800 underline dark:text-brand-200">
        Retour à la connexion
      </Link>
    </Page>
  );
}
