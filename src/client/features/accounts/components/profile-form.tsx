import type { InputHTMLAttributes } from "react";
import { CONSENT_CHANNELS, CONSENT_WORDING } from "../../../../domain/schemas/accounts.ts";
import { type ProfileInput, profileSchema } from "../../../../domain/schemas/profile.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Checkbox, Field } from "../../../components/ui/field.tsx";
import { useForm } from "../../../lib/use-form.ts";
import { Form } from "../../../components/ui/form.tsx";

export type ProfileValues = {
  firstName: string;
  lastName: string;
  birthday: string;
  postalCode: string;
  /** As shown (national form for France); "" when none. */
  phone: string;
  consents: Record<(typeof CONSENT_CHANNELS)[number], boolean>;
};

type ProfileTextName = Exclude<keyof ProfileValues, "consents">;

const CHANNEL_LABEL = { email: "Par e-mail", sms: "Par SMS", push: "Par notification" } as const;

/** The person's text fields, in the form's order (the birthday's latest date is today, set when shown). */
const PROFILE_FIELDS: readonly ({ name: ProfileTextName; label: string } & InputHTMLAttributes<HTMLInputElement> & {
    hint?: string;
  })[] = [
  { name: "firstName", label: "Prénom", autoComplete: "given-name" },
  { name: "lastName", label: "Nom", autoComplete: "family-name" },
  {
    name: "birthday",
    label: "Date de naissance (facultatif)",
    type: "date",
    min: "1900-01-01",
    autoComplete: "bday",
    hint: "Certains commerçants offrent une attention le jour de votre anniversaire.",
  },
  {
    name: "postalCode",
    label: "Code postal (facultatif)",
    inputMode: "numeric",
    autoComplete: "postal-code",
    maxLength: 5,
    hint: "Pour vous suggérer les boutiques près de chez vous.",
  },
  {
    name: "phone",
    label: "Téléphone mobile (facultatif)",
    type: "tel",
    inputMode: "tel",
    autoComplete: "tel",
    maxLength: 40,
    hint: "Seulement pour les SMS que vous acceptez ci-dessous. Un numéro français ou avec son indicatif (+32…).",
  },
];

/** The form data as the shared profile schema reads it (a box not ticked is absent from FormData). */
function readProfile(form: FormData): ProfileInput {
  const text = (name: string) => String(form.get(name) ?? "");
  return {
    firstName: text("firstName"),
    lastName: text("lastName"),
    birthday: text("birthday"),
    postalCode: text("postalCode"),
    phone: text("phone"),
    consents: { email: form.has("consent-email"), sms: form.has("consent-sms"), push: form.has("consent-push") },
  };
}

/**
 * First name, last name, optional birthday and postal code, and one consent box
 * per channel with the exact wording that is stored with the answer. Boxes are
 * never ticked for the person (GDPR art. 4(11): consent is an affirmative act).
 */
export function ProfileForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial?: ProfileValues;
  submitLabel: string;
  onSubmit: (input: ProfileInput) => Promise<void>;
}) {
  const form = useForm(
    profileSchema,
    (values) =>
      onSubmit({
        ...values,
        birthday: values.birthday ?? "",
        postalCode: values.postalCode ?? "",
        phone: values.phone ?? "",
      }),
    readProfile,
  );
  const today = new Date().toISOString().slice(0, 10);
  return (
    <Form form={form} className="flex flex-col gap-5">
      <div className="grid grid-cols-1 gap-4">
        {PROFILE_FIELDS.map(({ name, ...props }) => (
          <Field
            key={name}
            name={name}
            {...props}
            max={name === "birthday" ? today : undefined}
            defaultValue={initial?.[name]}
            error={form.fieldErrors[name]}
          />
        ))}
      </div>
      <fieldset className="flex flex-col gap-4 rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
        <legend className="px-1 text-base font-semibold">Offres et nouveautés</legend>
        <p className="-mt-1 text-sm text-stone-600 dark:text-stone-400">
          Facultatif. Cochez seulement ce que vous souhaitez recevoir ; vous pourrez changer d'avis à tout moment depuis
          votre profil.
        </p>
        {CONSENT_CHANNELS.map((channel) => (
          <div key={channel} className="flex flex-col gap-1">
            <span
              className="text-xs font-semibold uppercase tracking-wide text-brand-800 dark:text-brand-200"
              aria-hidden="true"
            >
              {CHANNEL_LABEL[channel]}
            </span>
            <Checkbox
              name={`consent-${channel}`}
              label={CONSENT_WORDING[channel]}
              defaultChecked={initial?.consents[channel] ?? false}
            />
          </div>
        ))}
      </fieldset>
      <Button type="submit" full isLoading={form.isSubmitting}>
        {submitLabel}
      </Button>
    </Form>
  );
}
