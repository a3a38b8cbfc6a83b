import { useQuery } from "@tanstack/react-query";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { tabsOf } from "../../../components/back-office/menu.ts";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { composerQueryOptions } from "../api/composer.ts";
import { ComposerForm } from "../components/composer-form.tsx";

function ShopComposer({ shopId }: { shopId: string }) {
  const query = useQuery(composerQueryOptions(shopId));
  return (
    <QueryState query={query}>
      {(composer) => (
        <ComposerForm
          key={shopId}
          scope={{ kind: "shop", shopId }}
          senderName={composer.shopName}
          tiers={composer.tiers}
          quota={composer.quota}
        />
      )}
    </QueryState>
  );
}

/** /admin/envoyer-un-message: a message to the shop's customers, all or a segment. */
export default function ComposePage() {
  return (
    <BackOfficeFrame
      scope="shop"
      title="Envoyer un message"
      lead="Gratuit, et seulement aux clients qui l'acceptent."
      tabs={tabsOf("Communication")}
    >
      {(shop) => <ShopComposer shopId={shop.id} />}
    </BackOfficeFrame>
  );
}
