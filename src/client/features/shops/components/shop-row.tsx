import { Link } from "react-router";
import { Glyph } from "../../../components/loyalty/glyph.tsx";
import { readableOn } from "../../../components/loyalty/loyalty-card.tsx";
import { StampIcon } from "../../../components/loyalty/stamp-icon.tsx";
import type { ShopSummary } from "../api/search-shops.ts";
import { OpenBadge } from "./open-badge.tsx";
import { formatDistance } from "../../../../domain/format.ts";
import { MoreButton } from "../../../components/ui/more-button.tsx";

/** One shop of a list: its logo (or its card's colours and stamp), name, category, city, open state, distance. */
function ShopRow({ shop }: { shop: ShopSummary }) {
  const { design } = shop;
  return (
    <li>
      <Link
        to={`/shop/${shop.slug}`}
        className="flex items-center gap-4 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-stone-200 transition hover:ring-brand-200 active:scale-[0.99] dark:bg-stone-900 dark:ring-stone-800"
      >
        {shop.logoUrl ? (
          <img src={shop.logoUrl} alt="" className="size-16 shrink-0 rounded-xl object-cover" loading="lazy" />
        ) : (
          <span className="relative flex size-16 shrink-0 items-center justify-center overflow-hidden rounded-xl" style={{ background: design.background, color: design.foreground }} aria-hidden="true">
            <span className="text-2xl font-black">{shop.name.trim().charAt(0).toUpperCase()}</span>
            <span className="absolute bottom-1 right-1 flex size-5 items-center justify-center rounded-full" style={{ background: design.accent, color: readableOn(design.accent) }}>
              <StampIcon name={design.stampIcon} className="size-3" />
            </span>
          </span>
        )}
        <span className="min-w-0 flex-1">
          <span className="block truncate font-semibold text-stone-900 dark:text-stone-50">{shop.name}</span>
          <span className="block truncate text-sm text-stone-600 dark:text-stone-400">
            {shop.categoryLabel} · {shop.city}
          </span>
          <span className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-0.5">
            {shop.distanceKm !== null ? <span className="text-xs font-bold text-brand-800 dark:text-brand-200">{formatDistance(shop.distanceKm)}</span> : null}
            <OpenBadge open={shop.open} />
            <span className="text-xs font-medium text-stone-600 dark:text-stone-400">{shop.mode === "stamps" ? "Carte à tampons" : "Carte à points"}</span>
          </span>
        </span>
        <Glyph name="chevron" className="size-5 shrink-0 text-stone-400" />
      </Link>
    </li>
  );
}

/** A list of shops read page by page, with « Voir plus » while there are more. */
export function ShopRows({
  shops,
  pages,
}: {
  shops: ShopSummary[];
  pages: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
}) {
  return (
    <>
      <ul className="flex flex-col gap-3">
        {shops.map((shop) => (
          <ShopRow key={shop.id} shop={shop} />
        ))}
      </ul>
      <MoreButton pages={pages} />
    </>
  );
}

export function ShopRowsSkeleton() {
  return (
    <ul className="flex flex-col gap-3" aria-busy="true" aria-label="Chargement des boutiques">
      {[0, 1, 2, 3].map((i) => (
        <li key={i} className="h-[88px] animate-pulse rounded-2xl bg-stone-200 dark:bg-stone-800" />
      ))}
    </ul>
  );
}
