import { useState } from "react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { useRenewCodeSecret } from "../api/renew-code-secret.ts";
import { Section } from "../../../components/back-office/back-office-page.tsx";
import { backofficeFileUrl, downloadFile } from "../../../lib/download-file.ts";

/** The printable poster of the card design page: download, static-code option, renewing the key. */

export function PosterSection({ shopId, allowed }: { shopId: string; allowed: boolean }) {
  const renew = useRenewCodeSecret(shopId);
  const [state, setState] = useState<
    { kind: "idle" | "downloading" | "confirm" | "renewing" } | { kind: "done" | "error"; message: string }
  >({
    kind: "idle",
  });
  const download = async () => {
    setState({ kind: "downloading" });
    try {
      await downloadFile(backofficeFileUrl(shopId, "poster.pdf"), "affiche-fidele.pdf");
      setState({ kind: "idle" });
    } catch (error) {
      setState({
        kind: "error",
        message: error instanceof ApiError ? error.message : "Le téléchargement a échoué. Réessayez.",
      });
    }
  };
  const renewKey = async () => {
    setState({ kind: "renewing" });
    try {
      await renew();
      setState({
        kind: "done",
        message: "Nouvelle clé en place : les anciennes affiches ne fonctionnent plus. Imprimez la nouvelle.",
      });
    } catch (error) {
      setState({
        kind: "error",
        message: error instanceof ApiError ? error.message : "Le renouvellement a échoué. Réessayez.",
      });
    }
  };
  return (
    <div id="affiche" className="scroll-mt-20">
      <Section
        title="Affiche à imprimer"
        lead="Une affiche A4 avec votre code et le mode d'emploi en français, à poser en vitrine ou près de la caisse."
      >
        <div className="flex flex-col gap-3">
          {allowed ? (
            <Button onClick={download} isLoading={state.kind === "downloading"}>
              Télécharger l'affiche (PDF A4)
            </Button>
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
          {state.kind === "confirm" ? (
            <div className="rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100">
              <p>
                Toutes les affiches imprimées cesseront de fonctionner, et le code du comptoir changera tout de suite.
                Continuer ?
              </p>
              <div className="mt-3 flex gap-2">
                <Button variant="danger" onClick={renewKey}>
                  Renouveler la clé
                </Button>
                <Button variant="secondary" onClick={() => setState({ kind: "idle" })}>
                  Annuler
                </Button>
              </div>
            </div>
          ) : (
            <Button variant="ghost" onClick={() => setState({ kind: "confirm" })} isLoading={state.kind === "renewing"}>
              Une affiche a été copiée ? Renouveler la clé du code
            </Button>
          )}
          {state.kind === "error" ? <Notice tone="error">{state.message}</Notice> : null}
          {state.kind === "done" ? <Notice tone="success">{state.message}</Notice> : null}
        </div>
      </Section>
    </div>
  );
}
