import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { tabsOf } from "../../../components/back-office/menu.ts";
import { SentList } from "../components/sent-list.tsx";

/** /admin/message: sent and scheduled messages with their counts; pause, resume, cancel. */
export default function SentPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      title="Messages"
      lead="Remis, lus, cliqués : ce que vos messages sont devenus."
      tabs={tabsOf("Communication")}
    >
      {(shop) => <SentList scope={{ kind: "shop", shopId: shop.id }} />}
    </BackOfficeFrame>
  );
}
