import { ButtonLink } from "../../../components/ui/button.tsx";
import { MessagesFrame, WithShop } from "../components/back-office-frame.tsx";
import { SentList } from "../components/sent-list.tsx";

/** /admin/message: sent and scheduled messages with their counts; pause, resume, cancel. */
export default function SentPage() {
  return (
    <MessagesFrame
      title="Messages"
      lead="Remis, lus, cliqués : ce que vos messages sont devenus."
      actions={<ButtonLink to="/admin/envoyer-un-message">Nouveau message</ButtonLink>}
    >
      <WithShop>{(shopId) => <SentList scope={{ kind: "shop", shopId }} />}</WithShop>
    </MessagesFrame>
  );
}
