import { ArticleView, articleLoader } from "../components/article-view.tsx";

export const loader = articleLoader("blog");

export default function BlogPage() {
  return <ArticleView kind="blog" />;
}
