import type { CardMode } from "../../../../domain/format.ts";
import type { CardDesign } from "../../../../domain/schemas/shops.ts";
import { passContent } from "../../../../domain/wallet/pass-content.ts";
import { QrImage } from "../../../components/qr/qr-image.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { useWalletStatus } from "../api/wallet.ts";

/** A made-up personal code: the preview shows where the real one goes. */
const SAMPLE_CODE = { qr: "FIDELE-C:EXEMPLE2", display: "EXEM-PLE2" };

/**
 * The card as a phone's wallet shows it (issue 26), live from the designer's draft: the same content as the real
 * Apple pass and Google object (domain/wallet/pass-content.ts), with a sample balance and personal code. Says when
 * the instance offers no wallet.
 */
export function WalletPreviewSection({
  shopName,
  design,
  mode,
  stampsGoal,
  balance,
}: {
  shopName: string;
  design: CardDesign;
  mode: CardMode;
  stampsGoal: number;
  balance: number;
}) {
  const status = useWalletStatus();
  const offered = status.data
    ? [status.data.apple && "Apple Wallet", status.data.google && "Google Wallet"].filter(Boolean)
    : [];
  const content = passContent({
    shop: { name: shopName, address: "", postalCode: "", city: "", lat: null, lng: null, design, isClosed: false },
    mode,
    stampsGoal,
    balance,
    rewards: { reachable: 0, next: { title: "Votre récompense", missing: Math.max(1, stampsGoal - balance) } },
    personalCode: SAMPLE_CODE,
  });
  return (
    <Section
      title="Dans le portefeuille du téléphone"
      lead={
        status.data === undefined
          ? null
          : offered.length > 0
            ? `Vos clients peuvent ajouter cette carte à ${offered.join(" et ")} depuis « Mes cartes » : elle s'y met à jour après chaque passage, et leur code client y sert au comptoir.`
            : "L'ajout de la carte au portefeuille du téléphone (Apple Wallet, Google Wallet) n'est pas activé sur ce service : vos clients utilisent leur carte dans l'application Fidèle."
      }
    >
      <div
        data-testid="wallet-preview"
        className="mx-auto flex w-full max-w-xs flex-col gap-3 rounded-2xl p-4 shadow-md"
        style={{ background: design.background, color: design.foreground }}
      >
        <p className="truncate text-base font-bold">{content.shopName}</p>
        <div>
          <p className="text-xs font-semibold uppercase tracking-wide">{content.balance.label}</p>
          <p className="text-2xl font-black">{content.balance.value}</p>
        </div>
        {content.rewards ? (
          <div>
            <p className="text-xs font-semibold uppercase tracking-wide">{content.rewards.label}</p>
            <p className="text-sm font-medium">{content.rewards.value}</p>
          </div>
        ) : null}
        {content.barcode ? (
          <div className="mx-auto flex w-36 flex-col items-center gap-1 rounded-lg bg-white p-2 text-stone-900">
            <QrImage
              text={content.barcode.message}
              label="Exemple de code client, tel que la carte du portefeuille le montre"
            />
            <p className="font-mono text-xs font-bold">{content.barcode.altText}</p>
          </div>
        ) : null}
      </div>
    </Section>
  );
}
