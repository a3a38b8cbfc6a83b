import { useMutation, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { reviewSchema } from "../../../../domain/schemas/shops.ts";
import { GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { useMyCards } from "../../../components/loyalty/my-cards-query.ts";
import { StampIcon } from "../../../components/loyalty/stamp-icon.tsx";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { ApiError, errorText } from "../../../lib/api-client.ts";
import { useForm } from "../../../lib/use-form.ts";
import { type ShopPageData, shopQueryOptions } from "../api/get-shop.ts";
import { deleteReview, saveReview, useRefreshShop } from "../api/save-review.ts";
import { useMutationFn } from "../../../lib/use-mutation-fn.ts";

const RATING_WORDS = ["Très décevant", "Décevant", "Correct", "Très bien", "Excellent"] as const;
const COMMENT_MAX = 1000;
const STAR = "M12 3.2l2.6 5.5 6 .8-4.4 4.2 1.1 6L12 16.8l-5.3 2.9 1.1-6-4.4-4.2 6-.8z";

function NoReward() {
  return (
    <p className="rounded-xl bg-stone-100 px-4 py-3 text-sm text-stone-700 dark:bg-stone-900 dark:text-stone-300">
      Votre avis est libre : aucun point, aucune récompense ni aucun avantage n'est jamais offert en échange d'un avis,
      qu'il soit positif ou négatif.
    </p>
  );
}

/** Five radio buttons drawn as stars; the number is read out, the word under them says what it means. */
function StarInput({ initial, error }: { initial: number; error?: string }) {
  const [value, setValue] = useState(initial);
  const errorId = useId();
  return (
    <fieldset aria-describedby={error && value === 0 ? errorId : undefined}>
      <legend className="text-sm font-medium text-stone-800 dark:text-stone-200">Votre note</legend>
      <div className="mt-2 flex gap-1">
        {[1, 2, 3, 4, 5].map((n) => (
          <label
            key={n}
            className="cursor-pointer rounded-lg p-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
          >
            <input
              type="radio"
              name="rating"
              value={n}
              className="sr-only"
              defaultChecked={n === initial}
              onChange={() => setValue(n)}
            />
            <span className="sr-only">
              {n} étoile{n > 1 ? "s" : ""} sur 5 : {RATING_WORDS[n - 1]}
            </span>
            <svg
              viewBox="0 0 24 24"
              className={`size-11 ${n <= value ? "text-accent-500" : "text-stone-300 dark:text-stone-700"}`}
              aria-hidden="true"
            >
              <path d={STAR} fill="currentColor" stroke="currentColor" strokeWidth="1" strokeLinejoin="round" />
            </svg>
          </label>
        ))}
      </div>
      <p className="mt-1 h-5 text-sm font-semibold text-stone-800 dark:text-stone-200" aria-hidden="true">
        {value > 0 ? RATING_WORDS[value - 1] : ""}
      </p>
      {error && value === 0 ? (
        <p id={errorId} className="text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

type Saved = "created" | "updated" | "deleted" | null;

function ReviewForm({ data, saved, setSaved }: { data: ShopPageData; saved: Saved; setSaved: (saved: Saved) => void }) {
  const sendReview = useMutationFn(saveReview);
  const { shop, myReview } = data;
  const refresh = useRefreshShop();
  const commentId = useId();
  const [length, setLength] = useState(myReview?.comment?.length ?? 0);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const form = useForm(
    reviewSchema,
    async (values) => {
      const { review } = await sendReview(shop.slug, {
        rating: values.rating,
        ...(values.comment ? { comment: values.comment } : {}),
      });
      // Said once the form shows the saved review (it starts afresh then): a star tapped earlier would be lost.
      await refresh(shop.slug);
      setSaved(review.created ? "created" : "updated");
    },
    (f) => ({ rating: f.get("rating") ?? 0, comment: f.get("comment") ?? "" }),
  );

  const remove = useMutation({
    mutationFn: () => deleteReview(shop.slug),
    onSuccess: async () => {
      setSaved("deleted");
      await refresh(shop.slug);
    },
  });

  if (saved === "deleted") {
    return (
      <div className="flex flex-col gap-4">
        <Notice tone="success">Votre avis sur {shop.name} a été supprimé.</Notice>
        <ButtonLink to={`/shop/${shop.slug}`} variant="secondary" full>
          Retour à la boutique
        </ButtonLink>
      </div>
    );
  }

  return (
    <form onSubmit={form.handleSubmit} noValidate className="flex flex-col gap-5">
      {saved ? (
        <Notice tone="success">
          {saved === "created" ? "Merci ! Votre avis est publié." : "Votre avis est mis à jour."}{" "}
          <Link to={`/shop/${shop.slug}#avis`} className="font-semibold underline">
            Voir la boutique
          </Link>
        </Notice>
      ) : null}
      {form.formError ? <Notice tone="error">{form.formError}</Notice> : null}
      <StarInput initial={myReview?.rating ?? 0} error={form.fieldErrors.rating} />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={commentId} className="text-sm font-medium text-stone-800 dark:text-stone-200">
          Votre commentaire (facultatif)
        </label>
        <textarea
          id={commentId}
          name="comment"
          rows={5}
          maxLength={COMMENT_MAX}
          defaultValue={myReview?.comment ?? ""}
          onChange={(e) => setLength(e.target.value.length)}
          placeholder="Accueil, produits, conseils… ce qui aidera d'autres clients."
          aria-invalid={form.fieldErrors.comment ? true : undefined}
          className="rounded-xl border border-stone-300 bg-white px-4 py-3 text-base text-stone-900 placeholder:text-stone-500 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
        />
        <p className="text-right text-xs text-stone-600 dark:text-stone-400">
          {length} / {COMMENT_MAX}
        </p>
        {form.fieldErrors.comment ? (
          <p className="text-sm font-medium text-red-700 dark:text-red-400">{form.fieldErrors.comment}</p>
        ) : null}
      </div>
      <Button type="submit" full isLoading={form.isSubmitting}>
        {myReview ? "Mettre à jour mon avis" : "Publier mon avis"}
      </Button>
      {myReview ? (
        confirmDelete ? (
          <div className="flex flex-col gap-2 rounded-xl border border-red-200 p-3 dark:border-red-900">
            <p className="text-sm">Supprimer définitivement votre avis sur {shop.name} ?</p>
            {remove.isError ? <Notice tone="error">{errorText(remove.error)}</Notice> : null}
            <div className="grid grid-cols-2 gap-2">
              <Button variant="danger" onClick={() => remove.mutate()} isLoading={remove.isPending}>
                Supprimer
              </Button>
              <Button variant="secondary" onClick={() => setConfirmDelete(false)}>
                Annuler
              </Button>
            </div>
          </div>
        ) : (
          <Button variant="ghost" onClick={() => setConfirmDelete(true)}>
            Supprimer mon avis
          </Button>
        )
      ) : null}
    </form>
  );
}

function ShopReview({ slug }: { slug: string }) {
  const shop = useQuery(shopQueryOptions(slug));
  // Kept here: the form below starts afresh (its key) once the saved review comes back.
  const [saved, setSaved] = useState<Saved>(null);
  if (shop.isPending)
    return <div className="h-64 animate-pulse rounded-2xl bg-stone-200 dark:bg-stone-800" aria-busy="true" />;
  if (shop.isError) {
    return (
      <Notice tone="error">
        {shop.error instanceof ApiError && shop.error.status === 404
          ? "Cette boutique n'existe pas ou plus."
          : shop.error.message}
      </Notice>
    );
  }
  const { data } = shop;
  return (
    <div className="flex flex-col gap-5">
      <Link
        to={`/shop/${slug}`}
        className="flex items-center gap-3 rounded-2xl p-3 shadow-sm"
        style={{ background: data.shop.design.background, color: data.shop.design.foreground }}
      >
        <StampIcon name={data.shop.design.stampIcon} className="size-6" />
        <span className="min-w-0">
          <span className="block truncate font-semibold">{data.shop.name}</span>
          <span className="block text-sm">
            {data.shop.categoryLabel} · {data.shop.city}
          </span>
        </span>
      </Link>
      {data.canReview || data.myReview || saved === "deleted" ? (
        <ReviewForm key={data.myReview?.updatedAt ?? "new"} data={data} saved={saved} setSaved={setSaved} />
      ) : (
        <div className="flex flex-col items-center gap-3 rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
          <GlyphBadge name="clock" tone="warning" />
          <p className="font-semibold">
            Vous pourrez donner votre avis sur {data.shop.name} après votre premier passage crédité.
          </p>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Seuls les clients de la boutique peuvent la noter : c'est ce qui rend les avis fiables.
          </p>
        </div>
      )}
    </div>
  );
}

/** Without ?shop=: the shops I am a customer of (from my cards), to pick one. */
function PickShop() {
  const cards = useMyCards();
  const customerOf = cards.data?.filter((c) => c.visits > 0) ?? [];
  if (cards.isPending)
    return <div className="h-40 animate-pulse rounded-2xl bg-stone-200 dark:bg-stone-800" aria-busy="true" />;
  if (cards.isError && !cards.data) return <Notice tone="error">{cards.error.message}</Notice>;
  if (customerOf.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
        <GlyphBadge name="store" />
        <p className="font-semibold">Vous pourrez noter une boutique après votre premier passage crédité chez elle.</p>
        <ButtonLink to="/boutiques" variant="secondary" full>
          Trouver une boutique
        </ButtonLink>
      </div>
    );
  }
  return (
    <nav aria-label="Boutiques à noter">
      <p className="mb-3 text-stone-700 dark:text-stone-300">Quelle boutique voulez-vous noter ?</p>
      <ul className="flex flex-col gap-2">
        {customerOf.map((card) => (
          <li key={card.id}>
            <Link
              to={`/review?shop=${card.shop.slug}`}
              className="flex min-h-14 items-center gap-3 rounded-2xl p-3 font-semibold shadow-sm"
              style={{ background: card.shop.design.background, color: card.shop.design.foreground }}
            >
              <StampIcon name={card.shop.design.stampIcon} className="size-6" />
              <span className="flex-1 truncate">{card.shop.name}</span>
              <span className="text-sm font-medium">{card.shop.city}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** /review: rate and comment a shop I am a customer of; one review per shop, editable; never rewarded. */
export default function ReviewPage() {
  const [params] = useSearchParams();
  const slug = params.get("shop");
  const isValidSlug = slug !== null && /^[a-z0-9-]{1,80}$/.test(slug);
  return (
    <div className="mx-auto flex max-w-md flex-col gap-5 px-5 pb-8 pt-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Donner mon avis</h1>
        <p className="mt-1 text-stone-700 dark:text-stone-300">
          Une note et quelques mots aident les autres clients. Vous pouvez modifier votre avis à tout moment.
        </p>
      </div>
      <NoReward />
      {slug !== null && !isValidSlug ? <Notice tone="error">Cette boutique n'existe pas ou plus.</Notice> : null}
      {isValidSlug ? <ShopReview slug={slug} /> : <PickShop />}
    </div>
  );
}
