import { useState } from "react";
import { Link } from "react-router";
import { z } from "zod";
import { passwordSchema } from "../../../../domain/schemas/accounts.ts";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { CurrentPasswordField, NewPasswordField } from "../components/password-fields.tsx";
import { Page } from "../../../components/ui/page.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { authClient } from "../../../lib/auth-client.ts";
import { useMe } from "../../../lib/me.ts";
import { useForm } from "../../../lib/use-form.ts";
import { GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { Form } from "../../../components/ui/form.tsx";

const schema = z
  .object({ currentPassword: z.string().min(1, "Saisissez votre mot de passe actuel."), newPassword: passwordSchema })
  .refine((v) => v.currentPassword !== v.newPassword, {
    path: ["newPassword"],
    message: "Le nouveau mot de passe doit être différent de l'actuel.",
  });

/** /change-password and /changer-mot-de-passe: the same page, signed in. */
export default function ChangePasswordPage() {
  const [isDone, setDone] = useState(false);
  const { data: me } = useMe();
  const form = useForm(schema, async ({ currentPassword, newPassword }) => {
    try {
      await authClient.changePassword(currentPassword, newPassword);
    } catch (error) {
      // A wrong current password belongs under its field only (an empty form message shows no banner).
      if (error instanceof ApiError && error.code === "INVALID_PASSWORD") {
        throw new ApiError(error.status, {
          code: "VALIDATION",
          message: "",
          fields: { currentPassword: error.message },
        });
      }
      throw error;
    }
    setDone(true);
  });

  if (isDone) {
    return (
      <Page title="Mot de passe changé">
        <div className="flex flex-col items-center gap-4 rounded-2xl border border-stone-200 bg-white p-6 text-center shadow-sm dark:border-stone-800 dark:bg-stone-900">
          <GlyphBadge name="check" tone="success" />
          <p className="text-stone-800 dark:text-stone-200">
            Votre mot de passe a été changé. Vos autres appareils ont été déconnectés ; celui-ci reste connecté.
          </p>
        </div>
        <ButtonLink to="/profil" full replace>
          Retour à mon profil
        </ButtonLink>
      </Page>
    );
  }

  return (
    <Page title="Changer de mot de passe" lead="Par sécurité, vos autres appareils seront déconnectés.">
      <Form form={form} submit="Changer mon mot de passe">
        <CurrentPasswordField
          label="Mot de passe actuel"
          name="currentPassword"
          error={form.fieldErrors.currentPassword}
        />
        <NewPasswordField name="newPassword" error={form.fieldErrors.newPassword} />
      </Form>
      <Link
        to={`/mot-de-passe-perdu${me ? `?email=${encodeURIComponent(me.user.email)}` : ""}`}
        className="text-center text-sm font-semibold text-brand-800 underline dark:text-brand-200"
      >
        Mot de passe actuel oublié ?
      </Link>
    </Page>
  );
}
