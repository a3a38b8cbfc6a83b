import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { Section } from "../../../components/ui/section.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { DownloadButton } from "../../../components/ui/download-button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { api, errorText, unwrap } from "../../../lib/api-client.ts";

/**
 * « Fermer ma boutique » (owner only): download the whole shop first, then delete it by typing its name. The server
 * refuses a deletion without a recent export (shop-closure.service.ts); the ledger and the figures are kept.
 */
export function CloseShopSection({ shopId, shopName }: { shopId: string; shopName: string }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const close = useMutation({
    mutationFn: () => unwrap(api.backoffice.shops[":shopId"].$delete({ param: { shopId }, json: { name } })),
    onSuccess: async () => {
      await navigate("/profil", { replace: true });
      queryClient.clear();
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    close.mutate();
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
            {close.isError ? (
              <Notice tone="error">{errorText(close.error, "La suppression a échoué. Réessayez.")}</Notice>
            ) : null}
            <Field
              label={`Pour confirmer, saisissez « ${shopName} »`}
              value={name}
              onValue={setName}
              autoComplete="off"
              required
            />
            <Button type="submit" variant="danger" full isLoading={close.isPending || close.isSuccess}>
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
