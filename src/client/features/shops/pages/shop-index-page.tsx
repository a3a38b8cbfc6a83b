import { redirect } from "react-router";

/** /shop without a slug: the list of shops (issue 4). */
export const loader = () => redirect("/boutiques");

export default function ShopIndexPage() {
  return null;
}
