import { data, type LoaderFunctionArgs, useParams } from "react-router";
import { ApiError } from "../../../lib/api-client.ts";
import { queryClient } from "../../../lib/query-client.ts";
import { type ArticleKind, articleQueryOptions, useArticle } from "../api/get-article.ts";
import { useArticles } from "../api/list-articles.ts";
import { ArticleList, formatArticleDate } from "./article-list.tsx";
import { SafeHtml } from "./prose.tsx";
import { SiteFooter } from "./site-footer.tsx";

/**
 * The route loader of /blog/:slug and /presentation/:slug: fetches the article
 * before the page shows, and turns an unknown slug into the app's 404 (as the
 * router's "*" route does).
 */
export function articleLoader(kind: ArticleKind) {
  return async ({ params, request }: LoaderFunctionArgs) => {
    try {
      await queryClient.ensureQueryData(articleQueryOptions(kind, params.slug ?? ""));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        throw data(`Page not found: ${new URL(request.url).pathname}`, { status: 404 });
      }
      throw error;
    }
    return null;
  };
}

const KIND_LABEL: Record<ArticleKind, string> = { blog: "Blog", presentation: "Présentation" };

export function ArticleView({ kind }: { kind: ArticleKind }) {
  const { slug = "" } = useParams();
  const { data: article } = useArticle(kind, slug);
  const { data: others } = useArticles(kind);
  const more = (others ?? []).filter((a) => a.slug !== slug).slice(0, 3);
  return (
    <>
      <article className="mx-auto max-w-md px-5 pb-8 pt-6">
        <header className="mb-6 border-b border-stone-200 pb-6 dark:border-stone-800">
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-700 dark:text-brand-200">{KIND_LABEL[kind]}</p>
          <h1 className="mt-2 text-[1.75rem] font-black leading-tight tracking-tight">{article.title}</h1>
          <p className="mt-3 text-lg text-stone-700 dark:text-stone-300">{article.description}</p>
          <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">
            Publié le <time dateTime={article.date}>{formatArticleDate(article.date)}</time>
          </p>
        </header>
        <SafeHtml html={article.html} />
      </article>
      {more.length > 0 ? (
        <section aria-labelledby="more-articles" className="mx-auto max-w-md px-5 pb-6">
          <h2 id="more-articles" className="mb-3 text-lg font-bold">
            {kind === "blog" ? "À lire aussi" : "Autres présentations"}
          </h2>
          <ArticleList kind={kind} articles={more} />
        </section>
      ) : null}
      <SiteFooter />
    </>
  );
}
