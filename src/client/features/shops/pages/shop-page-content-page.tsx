import { useState } from "react";
import { Link } from "react-router";
import { COVER_MAX_BYTES, LOGO_MAX_BYTES, SHOP_CATEGORIES, shopPageSchema } from "../../../../domain/schemas/shops.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { TextareaField } from "../../../components/ui/textarea-field.tsx";
import { useForm } from "../../../lib/use-form.ts";
import { type PageContent, usePageContent } from "../api/get-page-content.ts";
import { useSavePageContent } from "../api/save-page-content.ts";
import {
  BackofficeError,
  BackofficePage,
  PageSkeleton,
  Section,
} from "../../../components/back-office/back-office-page.tsx";
import { ImageInput } from "../../../components/ui/image-input.tsx";
import { readCoordinate } from "../components/coordinates.ts";
import { PositionPicker } from "../components/position-picker.tsx";

const LINKS = [
  { key: "website", label: "Site web", placeholder: "https://www.ma-boutique.fr" },
  { key: "instagram", label: "Instagram", placeholder: "https://www.instagram.com/ma.boutique" },
  { key: "facebook", label: "Facebook", placeholder: "https://www.facebook.com/maboutique" },
  { key: "tiktok", label: "TikTok", placeholder: "https://www.tiktok.com/@maboutique" },
] as const;

function PageContentForm({ shopId, page }: { shopId: string; page: PageContent }) {
  const save = useSavePageContent(shopId);
  const [logo, setLogo] = useState<string | null>(page.logo);
  const [cover, setCover] = useState<string | null>(page.cover);
  const [saved, setSaved] = useState(false);
  const form = useForm(
    shopPageSchema,
    async (values) => {
      setSaved(false);
      await save(values);
      setSaved(true);
    },
    (data) => {
      const text = (name: string) => String(data.get(name) ?? "");
      return {
        name: text("name"),
        category: text("category"),
        description: text("description"),
        address: text("address"),
        city: text("city"),
        postalCode: text("postalCode"),
        phone: text("phone"),
        lat: readCoordinate(data.get("lat")),
        lng: readCoordinate(data.get("lng")),
        logo,
        cover,
        links: Object.fromEntries(LINKS.map((l) => [l.key, text(`links.${l.key}`)])),
      };
    },
  );
  const e = form.fieldErrors;
  return (
    <form onSubmit={form.handleSubmit} className="flex flex-col gap-5" noValidate onChange={() => setSaved(false)}>
      {form.formError ? <Notice tone="error">{form.formError}</Notice> : null}
      <Section title="Images" lead="Votre logo apparaît sur la carte de vos clients ; la photo, en haut de votre page.">
        <div className="flex flex-col gap-6">
          <ImageInput
            label="Logo"
            hint="Carré de préférence ; réduit à 512 px."
            value={logo}
            onChange={(v) => {
              setLogo(v);
              setSaved(false);
            }}
            maxBytes={LOGO_MAX_BYTES}
            maxWidth={512}
            maxHeight={512}
            shape="round"
            error={e.logo}
          />
          <ImageInput
            label="Photo de couverture"
            hint="Votre vitrine ou vos produits, en largeur ; réduite à 1 600 px."
            value={cover}
            onChange={(v) => {
              setCover(v);
              setSaved(false);
            }}
            maxBytes={COVER_MAX_BYTES}
            maxWidth={1600}
            maxHeight={1000}
            shape="wide"
            error={e.cover}
          />
        </div>
      </Section>
      <Section title="Présentation">
        <div className="flex flex-col gap-4">
          <Field label="Nom de la boutique" name="name" defaultValue={page.name} maxLength={80} error={e.name} />
          <SelectField label="Catégorie" name="category" defaultValue={page.category} error={e.category}>
            {SHOP_CATEGORIES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </SelectField>
          <TextareaField
            label="Description (facultatif)"
            name="description"
            defaultValue={page.description ?? ""}
            maxLength={2000}
            rows={5}
            hint="Ce qui rend votre boutique unique : spécialités, savoir-faire, ce que vos clients aiment."
            error={e.description}
          />
        </div>
      </Section>
      <Section title="Adresse et contact">
        <div className="flex flex-col gap-4">
          <Field
            label="Adresse"
            name="address"
            defaultValue={page.address}
            autoComplete="street-address"
            error={e.address}
          />
          <div className="grid grid-cols-[7rem_minmax(0,1fr)] gap-3">
            <Field
              label="Code postal"
              name="postalCode"
              defaultValue={page.postalCode}
              inputMode="numeric"
              maxLength={5}
              error={e.postalCode}
              className="min-w-0"
            />
            <Field label="Ville" name="city" defaultValue={page.city} error={e.city} className="min-w-0" />
          </div>
          <Field label="Téléphone" name="phone" type="tel" defaultValue={page.phone} inputMode="tel" error={e.phone} />
          <PositionPicker initial={{ lat: page.lat, lng: page.lng }} errors={{ lat: e.lat, lng: e.lng }} />
        </div>
      </Section>
      <Section title="Liens (facultatif)" lead="Vos clients les retrouvent sur votre page.">
        <div className="grid gap-4 sm:grid-cols-2">
          {LINKS.map((l) => (
            <Field
              key={l.key}
              label={l.label}
              name={`links.${l.key}`}
              type="url"
              inputMode="url"
              placeholder={l.placeholder}
              defaultValue={page.links?.[l.key] ?? ""}
              error={e[`links.${l.key}`]}
            />
          ))}
        </div>
      </Section>
      {saved ? (
        <Notice tone="success">Votre page est enregistrée : vos clients voient déjà les changements.</Notice>
      ) : null}
      <div className="sticky bottom-0 -mx-4 border-t border-stone-200 bg-stone-50/95 px-4 py-3 backdrop-blur sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:p-0 dark:border-stone-800 dark:bg-stone-950/95">
        <Button type="submit" full isLoading={form.isSubmitting}>
          Enregistrer ma page
        </Button>
      </div>
    </form>
  );
}

function PageContentBody({ shopId }: { shopId: string }) {
  const page = usePageContent(shopId);
  if (page.isPending) return <PageSkeleton />;
  if (page.isError) return <BackofficeError error={page.error} onRetry={() => page.refetch()} />;
  return (
    <>
      <Link
        to={`/shop/${page.data.slug}`}
        className="self-start font-semibold text-brand-800 underline dark:text-brand-200"
      >
        Voir ma page comme un client
      </Link>
      <PageContentForm key={shopId} shopId={shopId} page={page.data} />
    </>
  );
}

/** /admin/ma-boutique: what shoppers see on the shop's page. */
export default function ShopPageContentPage() {
  return (
    <BackofficePage title="Ma boutique" lead="La page publique de votre boutique sur Fidèle.">
      {(shop) => <PageContentBody shopId={shop.id} />}
    </BackofficePage>
  );
}
