import { useState } from "react";
import { shopLegalSchema } from "../../../../domain/schemas/shops.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { useForm } from "../../../lib/use-form.ts";
import { useLegal } from "../api/get-legal.ts";
import { useSaveLegal } from "../api/save-legal.ts";
import { CloseShopSection } from "../components/close-shop-section.tsx";
import {
  BackofficeError,
  BackofficePage,
  PageSkeleton,
  Section,
} from "../../../components/back-office/back-office-page.tsx";

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
    <form onSubmit={form.handleSubmit} onChange={() => setSaved(false)} className="flex flex-col gap-5" noValidate>
      {form.formError ? <Notice tone="error">{form.formError}</Notice> : null}
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
          >
            <option value="">Non précisée</option>
            {forms.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </SelectField>
          <Field
            label="Capital social (facultatif)"
            name="shareCapital"
            defaultValue={legal.shareCapital ?? ""}
            placeholder="10 000 €"
            error={e.shareCapital}
          />
          <Field
            label="SIRET (facultatif)"
            name="siret"
            defaultValue={legal.siret ?? ""}
            inputMode="numeric"
            placeholder="14 chiffres"
            error={e.siret}
          />
          <Field
            label="N° de TVA intracommunautaire (facultatif)"
            name="vatNumber"
            defaultValue={legal.vatNumber ?? ""}
            placeholder="FR12345678901"
            error={e.vatNumber}
          />
          <Field
            label="RCS (facultatif)"
            name="rcs"
            defaultValue={legal.rcs ?? ""}
            placeholder="RCS Lyon 123 456 789"
            error={e.rcs}
            className="sm:col-span-2"
          />
        </div>
      </Section>
      <Section title="Siège et responsable">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Adresse du siège (facultatif)"
            name="legalAddress"
            defaultValue={legal.legalAddress ?? ""}
            error={e.legalAddress}
            className="sm:col-span-2"
          />
          <Field
            label="Dirigeant (facultatif)"
            name="director"
            defaultValue={legal.director ?? ""}
            autoComplete="name"
            error={e.director}
          />
          <Field
            label="E-mail de contact (facultatif)"
            name="contactEmail"
            type="email"
            defaultValue={legal.contactEmail ?? ""}
            autoComplete="email"
            error={e.contactEmail}
          />
        </div>
      </Section>
      {saved ? <Notice tone="success">Les informations de votre société sont enregistrées.</Notice> : null}
      <Button type="submit" full isLoading={form.isSubmitting}>
        Enregistrer
      </Button>
    </form>
  );
}

function LegalBody({ shopId }: { shopId: string }) {
  const legal = useLegal(shopId);
  if (legal.isPending) return <PageSkeleton />;
  if (legal.isError) return <BackofficeError error={legal.error} onRetry={() => legal.refetch()} />;
  return <LegalForm key={shopId} shopId={shopId} legal={legal.data} />;
}

/** /admin/edit-societe: the legal identity of the shop's company. */
export default function LegalPage() {
  return (
    <BackofficePage title="Société" lead="L'identité légale de votre entreprise, pour vos mentions et vos factures.">
      {(shop) => (
        <>
          <LegalBody shopId={shop.id} />
          {shop.role === "owner" ? <CloseShopSection shopId={shop.id} shopName={shop.name} /> : null}
        </>
      )}
    </BackofficePage>
  );
}
