import { useState } from "react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { DownloadButton } from "../../../components/ui/download-button.tsx";
import { useRenewCodeSecret } from "../api/renew-code-secret.ts";
import { Section } from "../../../components/ui/section.tsx";
import { backofficeFileUrl } from "../../../lib/download-file.ts";
import { ConfirmBox } from "../../../components/ui/confirm-box.tsx";

/** The printable poster of the card design page: download, static-code option, renewing the key. */

export function PosterSection({ shopId, allowed }: { shopId: string; allowed: boolean }) {
  const renew = useRenewCodeSecret(shopId);
  const [confirming, setConfirming] = useState(false);
  return (
    <div id="affiche" className="scroll-mt-20">
      <Section
        title="Affiche à imprimer"
        lead="Une affiche A4 avec votre code et le mode d'emploi en français, à poser en vitrine ou près de la caisse."
      >
        <div className="flex flex-col gap-3">
          {allowed ? (
            <DownloadButton
              url={backofficeFileUrl(shopId, "poster.pdf")}
              fallbackName="affiche-fidele.pdf"
              variant="primary"
              full
            >
              Télécharger l'affiche (PDF A4)
            </DownloadButton>
          ) : (
            <Notice>
              L'affiche porte un code fixe : cochez « Autoriser l'affiche imprimée » dans les règles ci-dessus et
              enregistrez pour la télécharger. Sinon, affichez le{" "}
              <Link to="/reader" className="font-semibold underline">
                code du comptoir
              </Link>
              , qui change toutes les 30 secondes.
            </Notice>
          )}
          {confirming ? (
            <ConfirmBox
              label="Renouveler la clé du code"
              confirmLabel="Renouveler la clé"
              onConfirm={() => {
                setConfirming(false);
                renew.mutate();
              }}
              onCancel={() => setConfirming(false)}
            >
              <p>
                Toutes les affiches imprimées cesseront de fonctionner, et le code du comptoir changera tout de suite.
                Continuer ?
              </p>
            </ConfirmBox>
          ) : (
            <Button
              variant="ghost"
              onClick={() => {
                renew.reset();
                setConfirming(true);
              }}
              isLoading={renew.isPending}
            >
              Une affiche a été copiée ? Renouveler la clé du code
            </Button>
          )}
          {renew.isError ? (
            <Notice tone="error">{errorText(renew.error, "Le renouvellement a échoué. Réessayez.")}</Notice>
          ) : null}
          {renew.isSuccess ? (
            <Notice tone="success">
              Nouvelle clé en place : les anciennes affiches ne fonctionnent plus. Imprimez la nouvelle.
            </Notice>
          ) : null}
        </div>
      </Section>
    </div>
  );
}
