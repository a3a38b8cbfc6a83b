/** What MoreButton needs of a list read page by page (TanStack Query's useInfiniteQuery). */
type Pages = { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };

const LOOKS = {
  /** A button of its own under a list of cards. */
  box: "min-h-12 rounded-xl border border-stone-300 bg-white font-semibold text-stone-900 hover:bg-stone-100 disabled:opacity-60 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100",
  /** A quiet line at the foot of a section. */
  link: "mt-2 inline-flex min-h-11 w-full items-center justify-center rounded-xl text-sm font-semibold text-brand-800 hover:bg-brand-50 disabled:opacity-60 dark:text-brand-200 dark:hover:bg-stone-800",
} as const;

/** « Voir plus » under a list read page by page: the next page, one at a time; nothing once all are read. */
export function MoreButton({
  pages,
  look = "box",
  label = "Voir plus",
}: {
  pages: Pages;
  look?: keyof typeof LOOKS;
  label?: string;
}) {
  if (!pages.hasNextPage) return null;
  return (
    <button
      type="button"
      onClick={() => void pages.fetchNextPage()}
      disabled={pages.isFetchingNextPage}
      className={LOOKS[look]}
    >
      {pages.isFetchingNextPage ? "Chargement…" : label}
    </button>
  );
}
