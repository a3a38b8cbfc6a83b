import { useState } from "react";
import { Link } from "react-router";
import {
  COVER_MAX_BYTES,
  LOGO_MAX_BYTES,
  shopPageSchema,
  WALLET_LOGO_PIXELS,
} from "../../../../domain/schemas/shops.ts";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { TextareaField } from "../../../components/ui/textarea-field.tsx";
import { useForm } from "../../../lib/use-form.ts";
import { type PageContent, usePageContent } from "../api/get-page-content.ts";
import { useSavePageContent } from "../api/save-page-content.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { ImageInput } from "../../../components/ui/image-input.tsx";
import { walletLogoPng } from "../../../components/ui/resize-image.ts";
import { readCoordinate } from "../components/coordinates.ts";
import { CategoryField } from "../components/category-field.tsx";
import { PositionPicker } from "../components/position-picker.tsx";
import { Form } from "../../../components/ui/form.tsx";
import { SaveBar } from "../../../components/ui/save-bar.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";

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
      // A new logo brings its PNG for Apple Wallet (PNG only); an unchanged one keeps the PNG kept.
      const walletLogo =
        logo === page.logo ? undefined : logo ? await walletLogoPng(logo, WALLET_LOGO_PIXELS).catch(() => null) : null;
      await save({ ...values, walletLogo });
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
    <Form form={form} className="flex flex-col gap-5" onChange={() => setSaved(false)}>
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
          <CategoryField defaultValue={page.category} error={e.category} />
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
      <SaveBar isLoading={form.isSubmitting}>Enregistrer ma page</SaveBar>
    </Form>
  );
}

function PageContentBody({ shopId }: { shopId: string }) {
  return (
    <QueryState query={usePageContent(shopId)}>
      {(page) => (
        <>
          <Link
            to={`/shop/${page.slug}`}
            className="self-start font-semibold text-brand-800 underline dark:text-brand-200"
          >
            Voir ma page comme un client
          </Link>
          <PageContentForm key={shopId} shopId={shopId} page={page} />
        </>
      )}
    </QueryState>
  );
}

/** /admin/ma-boutique: what shoppers see on the shop's page. */
export default function ShopPageContentPage() {
  return (
    <BackOfficeFrame scope="shop" title="Ma boutique" lead="La page publique de votre boutique sur Fidèle.">
      {(shop) => <PageContentBody shopId={shop.id} />}
    </BackOfficeFrame>
  );
}
