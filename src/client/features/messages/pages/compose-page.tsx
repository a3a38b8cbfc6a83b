import { useQuery } from "@tanstack/react-query";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { composerQueryOptions } from "../api/composer.ts";
import { LoadError, Loading, MessagesFrame, WithShop } from "../components/back-office-frame.tsx";
import { ComposerForm } from "../components/composer-form.tsx";

function ShopComposer({ shopId }: { shopId: string }) {
  const query = useQuery(composerQueryOptions(shopId));
  if (query.isPending) return <Loading />;
  if (query.error) return <LoadError error={query.error} />;
  return (
    <ComposerForm
      key={shopId}
      scope={{ kind: "shop", shopId }}
      senderName={query.data.shopName}
      tiers={query.data.tiers}
      quota={query.data.quota}
    />
  );
}

/** /admin/envoyer-un-message: a message to the shop's customers, all or a segment. */
export default function ComposePage() {
  return (
    <MessagesFrame
      title="Envoyer un message"
      lead="Gratuit, et seulement aux clients qui l'acceptent."
      actions={
        <ButtonLink to="/admin/message" variant="secondary">
          Messages envoyés
        </ButtonLink>
      }
    >
      <WithShop>{(shopId) => <ShopComposer shopId={shopId} />}</WithShop>
    </MessagesFrame>
  );
}
