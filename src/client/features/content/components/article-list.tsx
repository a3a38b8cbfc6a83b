import { Link } from "react-router";
import type { ArticleKind } from "../api/get-article.ts";

const dateFormat = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
/** An article's date (YYYY-MM-DD) in French, e.g. "6 octobre 2026". */
export const formatArticleDate = (isoDate: string) => dateFormat.format(new Date(`${isoDate}T00:00:00Z`));

type Summary = { slug: string; title: string; description: string; date: string };

export function ArticleList({ kind, articles }: { kind: ArticleKind; articles: Summary[] }) {
  return (
    <ul className="flex flex-col gap-3">
      {articles.map((a) => (
        <li key={a.slug}>
          <Link
            to={`/${kind}/${a.slug}`}
            className="block rounded-2xl border border-stone-200 bg-white p-4 shadow-sm transition hover:border-brand-200 dark:border-stone-800 dark:bg-stone-900"
          >
            <span className="block font-semibold text-stone-900 dark:text-stone-50">{a.title}</span>
            <span className="mt-1 line-clamp-2 block text-sm text-stone-700 dark:text-stone-300">{a.description}</span>
            <span className="mt-2 block text-xs text-stone-600 dark:text-stone-400">{formatArticleDate(a.date)}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
