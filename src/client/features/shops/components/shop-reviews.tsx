import { useInfiniteQuery } from "@tanstack/react-query";
import { capitalize, formatDate, formatRating } from "../../../../domain/format.ts";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { Section } from "../../../components/ui/section.tsx";
import type { ShopPageData } from "../api/get-shop.ts";
import { reviewsQueryOptions } from "../api/get-reviews.ts";
import { Stars } from "./stars.tsx";
import { MoreButton } from "../../../components/ui/more-button.tsx";

/** The shop's rating, its reviews page by page, and mine to give or change. */
export function ShopReviews({ data, isSignedIn }: { data: ShopPageData; isSignedIn: boolean }) {
  const { shop, rating, myReview, canReview } = data;
  const reviews = useInfiniteQuery(reviewsQueryOptions(shop.slug));
  const list = reviews.data?.pages.flatMap((p) => p.reviews) ?? [];
  return (
    <Section title={rating.count > 0 ? `Avis (${rating.count})` : "Avis"} id="avis">
      {rating.average !== null ? (
        <div className="flex items-center gap-3">
          <span className="text-4xl font-black tabular-nums">{formatRating(rating.average)}</span>
          <div>
            <Stars value={rating.average} className="size-5" />
            <p className="text-sm text-stone-600 dark:text-stone-400">
              {rating.count} avis client{rating.count > 1 ? "s" : ""}
            </p>
          </div>
        </div>
      ) : (
        <p className="text-stone-700 dark:text-stone-300">Pas encore d'avis sur cette boutique.</p>
      )}
      {isSignedIn && (canReview || myReview) ? (
        <ButtonLink to={`/review?shop=${shop.slug}`} variant="secondary" full className="mt-4">
          {myReview ? "Modifier mon avis" : "Donner mon avis"}
        </ButtonLink>
      ) : null}
      {list.length > 0 ? (
        <ul className="mt-4 divide-y divide-stone-100 dark:divide-stone-800">
          {list.map((review) => (
            <li key={review.id} className="py-3">
              <div className="flex items-center justify-between gap-3">
                <p className="font-semibold">{review.author}</p>
                <Stars value={review.rating} />
              </div>
              <p className="text-xs text-stone-600 dark:text-stone-400">{capitalize(formatDate(review.updatedAt))}</p>
              {review.comment ? (
                <p className="mt-1 whitespace-pre-line text-stone-800 dark:text-stone-200">{review.comment}</p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <MoreButton pages={reviews} look="link" label="Voir plus d'avis" />
    </Section>
  );
}
