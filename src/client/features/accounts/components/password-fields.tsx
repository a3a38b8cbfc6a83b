import type { ComponentProps } from "react";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../../../domain/schemas/accounts.ts";
import { PasswordField } from "../../../components/ui/field.tsx";

/**
 * A password being chosen (or typed again to confirm it): the browser may offer a strong one, the schema's longest
 * is the limit, and the shortest is said under it (`advice` after that), except under the confirmation.
 */
export function NewPasswordField({
  label = "Nouveau mot de passe",
  advice,
  confirmation = false,
  ...props
}: Omit<ComponentProps<typeof PasswordField>, "label" | "hint" | "autoComplete" | "maxLength"> & {
  label?: string;
  advice?: string;
  confirmation?: boolean;
}) {
  const hint = confirmation ? undefined : [`Au moins ${PASSWORD_MIN} caractères.`, advice].filter(Boolean).join(" ");
  return <PasswordField label={label} autoComplete="new-password" maxLength={PASSWORD_MAX} hint={hint} {...props} />;
}

/** The password the person has now (to sign in, or to confirm a sensitive act): the browser fills it in. */
export function CurrentPasswordField({
  label = "Mot de passe",
  name = "password",
  ...props
}: Omit<ComponentProps<typeof PasswordField>, "label" | "autoComplete"> & { label?: string }) {
  return <PasswordField label={label} name={name} autoComplete="current-password" {...props} />;
}
