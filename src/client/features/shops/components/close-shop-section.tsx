import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { Section } from "../../../components/back-office/back-office-page.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { DownloadButton } from "../../../components/ui/download-button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { api, ApiError, unwrap } from "../../../lib/api-client.ts";

/**
 * « Fermer ma boutique » (owner only): download the whole shop first, then delete it by typing its name. The server
 * refuses a deletion without a recent export (shop-closure.service.ts); the ledger and the figures are kept.
 */
export function CloseShopSection({ shopId, shopName }: { shopId: string; shopName: string }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await unwrap(api.backoffice.shops[":shopId"].$delete({ param: { shopId }, json: { name } }));
      await navigate("/profil", { replace: true });
      queryClient.clear();
    } catch (e) {
      setBusy(false);
      setError(e instanceof ApiError ? e.message : "La suppression a échoué. Réessayez.");
    }
  };

  return (
    <Section
      title="Fermer ma boutique"
      lead="Téléchargez d'abord toutes ses données (clients, passages, points, récompenses, jeux), puis supprimez-la. Les soldes de vos clients et l'historique des points restent tels quels ; la boutique disparaît de Fidèle et ses codes sont refusés."
    >
      <div className="flex flex-col gap-3">
        <DownloadButton url={`/api/backoffice/shops/${shopId}/export`} fallbackName="fidele-boutique.zip">
          Télécharger toutes les données de la boutique
        </DownloadButton>
        {open ? (
          <form onSubmit={onSubmit} className="flex flex-col gap-3" noValidate>
            {error ? <Notice tone="error">{error}</Notice> : null}
            <Field
              label={`Pour confirmer, saisissez « ${shopName} »`}
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoComplete="off"
              required
            />
            <Button type="submit" variant="danger" full isLoading={busy}>
              Supprimer définitivement la boutique
            </Button>
            <Button type="button" variant="secondary" full onClick={() => setOpen(false)}>
              Annuler
            </Button>
          </form>
        ) : (
          <Button variant="secondary" onClick={() => setOpen(true)}>
            Supprimer la boutique…
          </Button>
        )}
      </div>
    </Section>
  );
}
