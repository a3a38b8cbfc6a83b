import { useState } from "react";
import { Link, useParams } from "react-router";
import { formatDateShort, formatLocalDayMonth, formatNumber } from "../../../../domain/format.ts";
import {
  BackofficeError,
  BackofficePage,
  PageSkeleton,
  Section,
  useBackofficeShop,
} from "../../../components/back-office/back-office-page.tsx";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { type Product, useArchiveProduct, useProduct } from "../api/product.ts";

/** Redemptions (or lots won) per week, in plain SVG, its numbers in a table for screen readers. */
function WeeklyBars({ product }: { product: Product }) {
  const weeks = product.weeks;
  const max = Math.max(1, ...weeks.map((w) => w.count));
  const total = weeks.reduce((sum, w) => sum + w.count, 0);
  const noun = product.kind === "reward" ? "Utilisations" : "Lots gagnés";
  return (
    <figure className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <figcaption className="text-sm font-medium text-stone-700 dark:text-stone-300">
        {noun} sur {weeks.length} semaines : {formatNumber(total)}
      </figcaption>
      <svg viewBox="0 0 240 80" className="mt-2 h-20 w-full" aria-hidden="true" preserveAspectRatio="none">
        {weeks.map((w, i) => {
          const h = (w.count / max) * 78;
          return (
            <rect
              key={w.week}
              x={i * 20 + 2}
              y={80 - h}
              width={16}
              height={h}
              className="fill-brand-600 dark:fill-brand-300"
            />
          );
        })}
      </svg>
      <table className="sr-only">
        <caption>{noun}, semaine par semaine</caption>
        <tbody>
          {weeks.map((w) => (
            <tr key={w.week}>
              <th scope="row">Semaine du {formatLocalDayMonth(w.week)}</th>
              <td>{formatNumber(w.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
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
      {archive.isError ? (
        <Notice tone="error">
          {archive.error instanceof ApiError ? archive.error.message : "L'archivage a échoué."}
        </Notice>
      ) : null}
      {confirming ? (
        <div
          role="group"
          aria-label={`Archiver « ${product.title} »`}
          className="rounded-xl bg-red-50 p-3 text-sm text-red-950 dark:bg-red-950 dark:text-red-100"
        >
          <p>
            Archiver {what} ? Vos clients ne {product.kind === "reward" ? "la" : "le"} verront plus ; les utilisations
            passées restent dans vos statistiques.
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button variant="danger" isLoading={archive.isPending} onClick={() => archive.mutate()}>
              Confirmer l'archivage
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Annuler
            </Button>
          </div>
        </div>
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
                  <Link to={`/profile/${t.userId}`} className="font-medium text-brand-800 underline dark:text-brand-200">
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
  const { current } = useBackofficeShop();
  const query = useProduct(current.shopId, slug);
  if (query.isError) return <BackofficeError error={query.error} onRetry={() => query.refetch()} />;
  const back =
    query.data?.kind === "lot"
      ? { to: "/admin/gestion-des-lots", label: "Gestion des lots" }
      : { to: "/admin/recompenses", label: "Récompenses" };
  return (
    <BackofficePage
      title={query.data?.title ?? "Récompense"}
      lead={query.data ? (query.data.kind === "reward" ? "Récompense" : "Lot de jeu concours") : undefined}
      back={back}
    >
      {() =>
        query.data && current.shopId ? <ProductView shopId={current.shopId} product={query.data} /> : <PageSkeleton />
      }
    </BackofficePage>
  );
}
