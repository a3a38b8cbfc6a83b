import { Button } from "../../../components/ui/button.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { Notice } from "../../../components/ui/notice.tsx";
import { useRenewReceiptKey } from "../api/api-keys.ts";
import { ShownOnce } from "./shown-once.tsx";

/** The key a till signs receipt codes with (ADR 0053): made or renewed here, shown once with the shop's code. */
export function ReceiptKeySection({ shopId }: { shopId: string }) {
  const renew = useRenewReceiptKey(shopId);
  return (
    <Section
      title="Codes sur les tickets"
      lead="Votre caisse imprime sur chaque ticket un QR code que le client scanne pour gagner ses points, sans réseau au moment de l'impression. Donnez au fournisseur de la caisse la clé ci-dessous et le script de référence scripts/receipt-code.mjs. Une nouvelle clé annule les codes de l'ancienne."
    >
      <div className="flex flex-col gap-3">
        {renew.data ? (
          <ShownOnce label="Clé des tickets" value={renew.data.receiptKey}>
            <p className="mt-2">
              Code de la boutique : <code className="font-mono">{renew.data.shopCode}</code>
            </p>
          </ShownOnce>
        ) : null}
        {renew.error ? <Notice tone="error">{errorText(renew.error)}</Notice> : null}
        <Button variant="secondary" className="self-start" isLoading={renew.isPending} onClick={() => renew.mutate()}>
          Créer une nouvelle clé des tickets
        </Button>
      </div>
    </Section>
  );
}
