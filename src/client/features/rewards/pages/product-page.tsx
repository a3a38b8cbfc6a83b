import { useState } from "react";
import { Link, useParams } from "react-router";
import { formatDateShort, formatLocalDayMonth, formatNumber } from "../../../../domain/format.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { BarChart } from "../../../components/charts/bar-chart.tsx";
import { useCurrentShop } from "../../../components/shop/current-shop.ts";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { type Product, useArchiveProduct, useProduct } from "../api/product.ts";
import { ConfirmBox } from "../../../components/ui/confirm-box.tsx";

/** Redemptions (or lots won) per week. */
function WeeklyBars({ product }: { product: Product }) {
  const weeks = product.weeks;
  const total = weeks.reduce((sum, w) => sum + w.count, 0);
  const noun = product.kind === "reward" ? "Utilisations" : "Lots gagnés";
  return (
    <BarChart
      compact
      title={`${noun} sur ${weeks.length} semaines : ${formatNumber(total)}`}
      points={weeks.map((w) => ({
        key: w.week,
        label: `Semaine du ${formatLocalDayMonth(w.week)}`,
        tick: formatLocalDayMonth(w.week),
      }))}
      series={[{ label: noun, values: weeks.map((w) => w.count) }]}
    />
  );
}

function Archive({ shopId, product }: { shopId: string; product: Product }) {
  const [confirming, setConfirming] = useState(false);
  const archive = useArchiveProduct(shopId, product.slug);
  const what = product.kind === "reward" ? "cette récompense" : "ce lot";
  if (product.archived) {
    return (
      <Notice tone="info">
        Archivé{product.kind === "reward" ? "e" : ""} : vos clients ne {product.kind === "reward" ? "la" : "le"} voient
        plus, son historique est conservé.
      </Notice>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      {archive.isError ? <Notice tone="error">{errorText(archive.error, "L'archivage a échoué.")}</Notice> : null}
      {confirming ? (
        <ConfirmBox
          label={`Archiver « ${product.title} »`}
          confirmLabel="Confirmer l'archivage"
          isLoading={archive.isPending}
          onConfirm={() => archive.mutate()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            Archiver {what} ? Vos clients ne {product.kind === "reward" ? "la" : "le"} verront plus ; les utilisations
            passées restent dans vos statistiques.
          </p>
        </ConfirmBox>
      ) : (
        <div className="flex flex-wrap gap-2">
          <ButtonLink to={product.editUrl} variant="secondary">
            Modifier
          </ButtonLink>
          <Button variant="secondary" onClick={() => setConfirming(true)}>
            Archiver
          </Button>
        </div>
      )}
    </div>
  );
}

function ProductView({ shopId, product }: { shopId: string; product: Product }) {
  return (
    <div className="mt-4 flex flex-col gap-6">
      {product.description ? <p className="text-stone-700 dark:text-stone-300">{product.description}</p> : null}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {product.facts.map((f) => (
          <div key={f.label} className="rounded-2xl bg-stone-100 p-3 dark:bg-stone-800">
            <dt className="text-sm text-stone-600 dark:text-stone-400">{f.label}</dt>
            <dd className="text-lg font-semibold break-words">{f.value}</dd>
          </div>
        ))}
      </dl>
      <WeeklyBars product={product} />
      <Archive shopId={shopId} product={product} />
      <Section title={product.kind === "reward" ? "Qui l'a prise" : "Qui l'a gagné"}>
        {product.takers.length === 0 ? (
          <p className="text-stone-600 dark:text-stone-400">Personne pour l'instant.</p>
        ) : (
          <ul className="divide-y divide-stone-200 dark:divide-stone-800">
            {product.takers.map((t) => (
              <li key={t.id} className="flex flex-wrap items-baseline justify-between gap-2 py-2">
                {t.userId ? (
                  <Link
                    to={`/profile/${t.userId}`}
                    className="font-medium text-brand-800 underline dark:text-brand-200"
                  >
                    {t.name}
                  </Link>
                ) : (
                  <span className="font-medium">{t.name}</span>
                )}
                <span className="text-sm text-stone-600 dark:text-stone-400">
                  {t.statusLabel} · {formatDateShort(t.at)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}

/** /admin/{product}: one reward or prize lot of the current shop — figures, who took it, edit and archive. */
export default function ProductPage() {
  const { product: slug = "" } = useParams();
  const current = useCurrentShop();
  const query = useProduct(current.shopId, slug);
  const back =
    query.data?.kind === "lot"
      ? { to: "/admin/gestion-des-lots", label: "Gestion des lots" }
      : { to: "/admin/recompenses", label: "Récompenses" };
  return (
    <BackOfficeFrame
      scope="shop"
      title={query.data?.title ?? "Récompense"}
      lead={query.data ? (query.data.kind === "reward" ? "Récompense" : "Lot de jeu concours") : undefined}
      back={back}
      error={query.error}
    >
      {(shop) => (query.data ? <ProductView shopId={shop.id} product={query.data} /> : <Skeleton />)}
    </BackOfficeFrame>
  );
}
