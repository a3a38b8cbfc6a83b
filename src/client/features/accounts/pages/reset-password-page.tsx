import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useSearchParams } from "react-router";
import { z } from "zod";
import { passwordSchema } from "../../../../domain/schemas/accounts.ts";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { NewPasswordField } from "../components/password-fields.tsx";
import { Page } from "../../../components/ui/page.tsx";
import { authClient } from "../../../lib/auth-client.ts";
import { meQueryOptions } from "../../../lib/me.ts";
import { useForm } from "../../../lib/use-form.ts";
import { GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { Form } from "../../../components/ui/form.tsx";

const schema = z
  .object({ password: passwordSchema, confirmation: z.string() })
  .refine((v) => v.password === v.confirmation, {
    path: ["confirmation"],
    message: "Les deux mots de passe ne sont pas identiques.",
  });

/** From the e-mail link: better-auth sends here with ?token=… or ?error=INVALID_TOKEN. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const token = params.get("token");
  const form = useForm(schema, async ({ password }) => {
    await authClient.resetPassword(token ?? "", password);
    // Every session of the account is revoked by the reset: forget this one's data too.
    queryClient.clear();
    queryClient.setQueryData(meQueryOptions().queryKey, null);
    navigate("/login", {
      replace: true,
      state: { notice: "Votre mot de passe a été changé. Connectez-vous avec le nouveau." },
    });
  });

  if (params.get("error") || !token) {
    return (
      <Page title="Lien expiré">
        <div className="flex flex-col items-center gap-4 rounded-2xl border border-stone-200 bg-white p-6 text-center shadow-sm dark:border-stone-800 dark:bg-stone-900">
          <GlyphBadge name="alert" tone="warning" />
          <p className="text-stone-800 dark:text-stone-200">
            Ce lien de réinitialisation n'est plus valable : il a déjà servi ou date de plus d'une heure.
          </p>
        </div>
        <ButtonLink to="/mot-de-passe-perdu" full>
          Recevoir un nouveau lien
        </ButtonLink>
      </Page>
    );
  }

  return (
    <Page
      title="Nouveau mot de passe"
      lead="Choisissez votre nouveau mot de passe. Par sécurité, tous vos appareils seront déconnectés."
    >
      <Form form={form} submit="Changer mon mot de passe">
        <NewPasswordField name="password" error={form.fieldErrors.password} />
        <NewPasswordField
          label="Confirmez le nouveau mot de passe"
          name="confirmation"
          confirmation
          error={form.fieldErrors.confirmation}
        />
      </Form>
      {form.formError ? (
        <Link
          to="/mot-de-passe-perdu"
          className="text-center text-sm font-semibold text-brand-800 underline dark:text-brand-200"
        >
          Recevoir un nouveau lien
        </Link>
      ) : null}
    </Page>
  );
}
