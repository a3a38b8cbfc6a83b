import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { ApiKeysSection } from "../components/api-keys-section.tsx";
import { ReceiptKeySection } from "../components/receipt-key-section.tsx";
import { TabletsSection } from "../components/tablets-section.tsx";
import { WebhooksSection } from "../components/webhooks-section.tsx";
import { ZettleSection } from "../components/zettle-section.tsx";

/**
 * /admin/caisse: Fidèle beside the till (issue 29): counter tablets, Zettle, receipt codes, API keys, webhooks and
 * their deliveries.
 */
export default function TillPage() {
  return (
    <BackOfficeFrame scope="shop" title="Caisse et API" lead="Reliez Fidèle à votre caisse ou à vos logiciels.">
      {(shop) => (
        <div className="flex flex-col gap-5">
          {/* What a shop without a developer uses first; the API and webhooks last. */}
          <TabletsSection shopId={shop.id} />
          <ZettleSection shopId={shop.id} />
          <ReceiptKeySection shopId={shop.id} />
          <ApiKeysSection shopId={shop.id} />
          <WebhooksSection shopId={shop.id} />
        </div>
      )}
    </BackOfficeFrame>
  );
}
