import { useState } from "react";
import { PREPAID_VALIDITY_MONTHS } from "../../../../domain/loyalty/prepaid.ts";
import { prepaidProductSchema } from "../../../../domain/schemas/prepaid.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { DownloadButton } from "../../../components/ui/download-button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Form } from "../../../components/ui/form.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useForm } from "../../../lib/use-form.ts";
import { liabilityCsvUrl, useLiability } from "../api/liability.ts";
import { type OwnerProduct, useCreateProduct, useOwnerProducts, useSetProductActive } from "../api/products.ts";

/** « 30 », « 12,50 » euros → cents (NaN when it is not an amount: the schema says so in French). */
const cents = (text: string) =>
  /^\s*\d+([,.]\d{1,2})?\s*$/.test(text) ? Math.round(Number(text.replace(",", ".")) * 100) : Number.NaN;

function Owed({ shopId }: { shopId: string }) {
  const owed = useLiability(shopId);
  if (owed.isPending) return <Skeleton blocks={2} />;
  if (owed.isError) return <LoadError error={owed.error} onRetry={() => owed.refetch()} />;
  const d = owed.data;
  return (
    <Section
      title="Ce qui reste dû"
      lead="Chaque solde non expiré est une dette de la boutique : des prestations à rendre, des euros à honorer."
    >
      <dl className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2">
        <div className="rounded-xl bg-stone-50 p-3 dark:bg-stone-800">
          <dt className="text-sm text-stone-700 dark:text-stone-300">Carnets : unités à servir</dt>
          <dd className="text-2xl font-bold tabular-nums" data-testid="owed-units">
            {d.units.outstandingLabel}
          </dd>
          <dd className="text-sm text-stone-700 dark:text-stone-300">{d.units.holdings} carnet(s) en cours</dd>
        </div>
        <div className="rounded-xl bg-stone-50 p-3 dark:bg-stone-800">
          <dt className="text-sm text-stone-700 dark:text-stone-300">Cartes cadeaux : euros à honorer</dt>
          <dd className="text-2xl font-bold tabular-nums" data-testid="owed-euros">
            {d.euros.outstandingLabel}
          </dd>
          <dd className="text-sm text-stone-700 dark:text-stone-300">
            {d.euros.holdings} carte(s) en cours, dont {d.euros.waiting} pas encore récupérée(s)
          </dd>
        </div>
      </dl>
      <p className="mt-3 text-sm text-stone-700 dark:text-stone-300">
        Ventes prépayées sur 12 mois : <strong>{d.sales12Months.label}</strong>. Au-delà de {d.acprThreshold.label} sur
        12 mois, l'exemption « réseau limité » doit être déclarée à l'ACPR (code monétaire et financier, articles
        L.521-3 et L.525-6).
      </p>
      {d.acprThreshold.reached ? (
        <div className="mt-3">
          <Notice tone="error">Seuil atteint : déclarez l'exemption à l'ACPR.</Notice>
        </div>
      ) : null}
      <div className="mt-4">
        <DownloadButton url={liabilityCsvUrl(shopId)} fallbackName="prepaye.csv">
          Exporter les soldes (CSV)
        </DownloadButton>
      </div>
    </Section>
  );
}

function ProductForm({ shopId, onDone }: { shopId: string; onDone: () => void }) {
  const create = useCreateProduct(shopId);
  const [kind, setKind] = useState<"units" | "euros">("units");
  const form = useForm(
    prepaidProductSchema,
    async (values) => {
      await create(values);
      onDone();
    },
    (data) => {
      const k = String(data.get("kind") ?? "");
      const quantity = String(data.get("quantity") ?? "");
      return {
        kind: k,
        title: String(data.get("title") ?? ""),
        quantity: k === "euros" ? cents(quantity) : quantity,
        priceCents: cents(String(data.get("price") ?? "")),
        validityMonths: String(data.get("validityMonths") ?? ""),
      };
    },
  );
  return (
    <Form form={form} className="flex flex-col gap-3">
      <SelectField
        label="Type"
        name="kind"
        value={kind}
        onChange={(e) => setKind(e.target.value === "euros" ? "euros" : "units")}
        error={form.fieldErrors.kind}
      >
        <option value="units">Carnet (en unités : coupes, séances…)</option>
        <option value="euros">Carte cadeau (en euros)</option>
      </SelectField>
      <Field
        label="Nom"
        name="title"
        placeholder={kind === "units" ? "Carnet de 10 coupes" : "Carte cadeau 30 €"}
        error={form.fieldErrors.title}
      />
      <Field
        label={kind === "units" ? "Nombre d'unités" : "Valeur (€)"}
        name="quantity"
        inputMode={kind === "units" ? "numeric" : "decimal"}
        error={form.fieldErrors.quantity}
      />
      <Field label="Prix payé en caisse (€)" name="price" inputMode="decimal" error={form.fieldErrors.priceCents} />
      <Field
        label="Validité (mois)"
        name="validityMonths"
        inputMode="numeric"
        defaultValue={String(PREPAID_VALIDITY_MONTHS.default)}
        hint="Libre, mais toujours indiquée au client : à la vente, dans l'app et dans l'e-mail d'une carte offerte."
        error={form.fieldErrors.validityMonths}
      />
      <div className="flex gap-2">
        <Button type="submit" isLoading={form.isSubmitting} className="flex-1">
          Créer le produit
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Annuler
        </Button>
      </div>
    </Form>
  );
}

function ProductItem({ shopId, product }: { shopId: string; product: OwnerProduct }) {
  const setActive = useSetProductActive(shopId);
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-3">
      <div className="min-w-0">
        <p className="font-semibold">{product.title}</p>
        <p className="text-sm text-stone-700 dark:text-stone-300">
          {product.quantityLabel} · {product.priceLabel} · valable {product.validityMonths} mois
          {product.isActive ? "" : " · retiré de la vente"}
        </p>
      </div>
      <Button
        variant="secondary"
        className="!min-h-10 !px-4 text-sm"
        isLoading={setActive.isPending}
        onClick={() => setActive.mutate({ productId: product.id, isActive: !product.isActive })}
      >
        {product.isActive ? "Retirer de la vente" : "Remettre en vente"}
        <span className="sr-only"> : « {product.title} »</span>
      </Button>
      {setActive.isError ? <Notice tone="error">{errorText(setActive.error)}</Notice> : null}
    </li>
  );
}

function Products({ shopId }: { shopId: string }) {
  const products = useOwnerProducts(shopId);
  const [adding, setAdding] = useState(false);
  return (
    <Section
      title="Produits"
      lead="Ce que l'équipe peut vendre au comptoir. Le paiement se fait en caisse : l'app enregistre la vente et le solde."
    >
      {products.isPending ? (
        <Skeleton blocks={1} />
      ) : products.isError ? (
        <LoadError error={products.error} onRetry={() => products.refetch()} />
      ) : products.data.length === 0 ? (
        <p className="mt-2 text-stone-700 dark:text-stone-300">Aucun produit pour l'instant.</p>
      ) : (
        <ul className="mt-2 divide-y divide-stone-100 dark:divide-stone-800">
          {products.data.map((p) => (
            <ProductItem key={p.id} shopId={shopId} product={p} />
          ))}
        </ul>
      )}
      <div className="mt-3">
        {adding ? (
          <ProductForm shopId={shopId} onDone={() => setAdding(false)} />
        ) : (
          <Button full onClick={() => setAdding(true)}>
            + Nouveau produit
          </Button>
        )}
      </div>
    </Section>
  );
}

/** /admin/prepaye (owner): prepaid products, what is still owed on them, its export (ADR 0049). */
export default function PrepaidPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      title="Carnets et cartes cadeaux"
      lead="Des carnets (10 coupes, 5 séances…) et des cartes cadeaux vendus en caisse, utilisables dans votre boutique seulement."
      actions={
        <ButtonLink to="/admin/import-clients" variant="secondary">
          Importer des soldes
        </ButtonLink>
      }
    >
      {(shop) => (
        <div className="flex flex-col gap-5">
          <Owed shopId={shop.id} />
          <Products shopId={shop.id} />
        </div>
      )}
    </BackOfficeFrame>
  );
}
