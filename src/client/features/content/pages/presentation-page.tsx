import { ArticleView, articleLoader } from "../components/article-view.tsx";

export const loader = articleLoader("presentation");

export default function PresentationPage() {
  return <ArticleView kind="presentation" />;
}
