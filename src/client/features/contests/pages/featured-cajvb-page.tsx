import { FeaturedPage } from "../components/featured-page.tsx";

/** A featured contest page (the platform admin pins its contest). */
export default function Featured() {
  return <FeaturedPage slot="cajvb" title="Jeu concours" />;
}
