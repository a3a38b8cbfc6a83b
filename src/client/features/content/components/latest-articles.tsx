import { Link } from "react-router";
import { useArticles } from "../api/list-articles.ts";

export const PANEL = "rounded-2xl bg-white shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800";

/** The two newest blog posts (a short list of its own: the full ArticleList would be one more chunk on /). */
export function LatestArticles() {
  const { data: posts } = useArticles("blog");
  if (!posts || posts.length === 0) return null;
  return (
    <section aria-labelledby="home-blog">
      <h2 id="home-blog" className="mb-3 text-lg font-bold">
        Le blog
      </h2>
      <ul className="flex flex-col gap-3">
        {posts.slice(0, 2).map((post) => (
          <li key={post.slug}>
            <Link to={`/blog/${post.slug}`} className={`block p-4 ${PANEL}`}>
              <span className="block font-semibold">{post.title}</span>
              <span className="mt-1 line-clamp-2 block text-sm text-stone-700 dark:text-stone-300">{post.description}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
