import { type InputHTMLAttributes, useState } from "react";
import { shopLegalSchema } from "../../../../domain/schemas/shops.ts";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { useForm } from "../../../lib/use-form.ts";
import { useLegal } from "../api/get-legal.ts";
import { useSaveLegal } from "../api/save-legal.ts";
import { CloseShopSection } from "../components/close-shop-section.tsx";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { Form } from "../../../components/ui/form.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";

const LEGAL_FORMS = [
  "Entreprise individuelle",
  "Micro-entreprise",
  "EURL",
  "SARL",
  "SAS",
  "SASU",
  "SA",
  "SNC",
  "Association",
  "Autre",
];

type Legal = NonNullable<ReturnType<typeof useLegal>["data"]>;

type LegalField = {
  name: keyof Legal;
  label: string;
  /** Across both columns from `sm` up. */
  wide?: boolean;
} & Pick<InputHTMLAttributes<HTMLInputElement>, "type" | "autoComplete" | "inputMode" | "placeholder">;

const COMPANY_FIELDS: LegalField[] = [
  { name: "shareCapital", label: "Capital social (facultatif)", placeholder: "10 000 €" },
  { name: "siret", label: "SIRET (facultatif)", inputMode: "numeric", placeholder: "14 chiffres" },
  { name: "vatNumber", label: "N° de TVA intracommunautaire (facultatif)", placeholder: "FR12345678901" },
  { name: "rcs", label: "RCS (facultatif)", placeholder: "RCS Lyon 123 456 789", wide: true },
];

const HEAD_OFFICE_FIELDS: LegalField[] = [
  { name: "legalAddress", label: "Adresse du siège (facultatif)", wide: true },
  { name: "director", label: "Dirigeant (facultatif)", autoComplete: "name" },
  { name: "contactEmail", label: "E-mail de contact (facultatif)", type: "email", autoComplete: "email" },
];

/** The text fields of one part of the form, from their list. */
function LegalFields({
  fields,
  legal,
  errors,
}: {
  fields: LegalField[];
  legal: Legal;
  errors: Record<string, string>;
}) {
  return fields.map(({ name, wide, ...field }) => (
    <Field
      key={name}
      name={name}
      defaultValue={legal[name] ?? ""}
      error={errors[name]}
      className={wide ? "sm:col-span-2" : undefined}
      {...field}
    />
  ));
}

function LegalForm({ shopId, legal }: { shopId: string; legal: Legal }) {
  const save = useSaveLegal(shopId);
  const [saved, setSaved] = useState(false);
  const form = useForm(shopLegalSchema, async (values) => {
    setSaved(false);
    await save(values);
    setSaved(true);
  });
  const e = form.fieldErrors;
  const forms =
    legal.legalForm && !LEGAL_FORMS.includes(legal.legalForm) ? [legal.legalForm, ...LEGAL_FORMS] : LEGAL_FORMS;
  return (
    <Form form={form} className="flex flex-col gap-5" onChange={() => setSaved(false)} submit="Enregistrer">
      <Section title="Entreprise">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Raison sociale"
            name="legalName"
            defaultValue={legal.legalName}
            autoComplete="organization"
            error={e.legalName}
            className="sm:col-span-2"
          />
          <SelectField
            label="Forme juridique (facultatif)"
            name="legalForm"
            defaultValue={legal.legalForm ?? ""}
            error={e.legalForm}
            options={forms.map((f) => ({ value: f, label: f }))}
          >
            <option value="">Non précisée</option>
          </SelectField>
          <LegalFields fields={COMPANY_FIELDS} legal={legal} errors={e} />
        </div>
      </Section>
      <Section title="Siège et responsable">
        <div className="grid gap-4 sm:grid-cols-2">
          <LegalFields fields={HEAD_OFFICE_FIELDS} legal={legal} errors={e} />
        </div>
      </Section>
      {saved ? <Notice tone="success">Les informations de votre société sont enregistrées.</Notice> : null}
    </Form>
  );
}

function LegalBody({ shopId }: { shopId: string }) {
  return (
    <QueryState query={useLegal(shopId)}>
      {(legal) => <LegalForm key={shopId} shopId={shopId} legal={legal} />}
    </QueryState>
  );
}

/** /admin/edit-societe: the legal identity of the shop's company. */
export default function LegalPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      title="Société"
      lead="L'identité légale de votre entreprise, pour vos mentions et vos factures."
    >
      {(shop) => (
        <>
          <LegalBody shopId={shop.id} />
          {shop.role === "owner" ? <CloseShopSection shopId={shop.id} shopName={shop.name} /> : null}
        </>
      )}
    </BackOfficeFrame>
  );
}
