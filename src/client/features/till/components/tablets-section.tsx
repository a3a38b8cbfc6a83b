import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDateTime, formatNumber, pluralWord } from "../../../../domain/format.ts";
import { tabletCreateSchema } from "../../../../domain/schemas/till.ts";
import { QrImage } from "../../../components/qr/qr-image.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Form } from "../../../components/ui/form.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { useForm } from "../../../lib/use-form.ts";
import { type Tablet, tabletsQueryOptions, useCreateTablet, useRevokeTablet } from "../api/tablets.ts";
import { SetUpList } from "./till-lists.tsx";

function tabletState(t: Tablet): string {
  if (t.revokedAt) return `Révoquée le ${formatDateTime(t.revokedAt)}`;
  if (!t.pairedAt) {
    return t.pairingExpiresAt && Date.parse(t.pairingExpiresAt) > Date.now()
      ? `En attente : lien valable jusqu'au ${formatDateTime(t.pairingExpiresAt)}`
      : "Lien expiré : retirez-la et ajoutez-en une nouvelle";
  }
  return t.lastSeenAt ? `Reliée · vue le ${formatDateTime(t.lastSeenAt)}` : "Reliée";
}

/** « Aujourd'hui : 3 codes de montant (42,50 €), 2 scannés par un client » — to set beside the till's takings. */
function amountCodesTodayFr(today: NonNullable<Tablet["today"]>): string {
  const codes = `${formatNumber(today.codes)} ${pluralWord(today.codes, "code", "codes")} de montant`;
  const claimed = `${formatNumber(today.claimed)} ${pluralWord(today.claimed, "scanné", "scannés")} par un client`;
  return `Aujourd'hui : ${codes} (${today.amountLabel}), ${claimed}`;
}

function TabletRow({ shopId, tablet }: { shopId: string; tablet: Tablet }) {
  const revoke = useRevokeTablet(shopId);
  return (
    <li className="flex flex-col gap-1 border-t border-stone-200 py-3 first:border-t-0 dark:border-stone-800">
      <p className="font-semibold">{tablet.name}</p>
      <p className="text-sm text-stone-700 dark:text-stone-300">{tabletState(tablet)}</p>
      {tablet.today ? (
        <p className="text-sm text-stone-800 dark:text-stone-200" data-testid="tablet-today">
          {amountCodesTodayFr(tablet.today)}
        </p>
      ) : null}
      {tablet.revokedAt ? null : (
        <Button
          variant="secondary"
          className="self-start"
          isLoading={revoke.isPending}
          onClick={() => revoke.mutate(tablet.id)}
          aria-label={`Révoquer la tablette « ${tablet.name} »`}
        >
          Révoquer
        </Button>
      )}
    </li>
  );
}

/**
 * The shop's counter tablets (ADR 0054): a tablet shows the counter's code, the last visits and, behind the staff
 * PIN, amount codes; it opens nothing else. Its pairing link is shown once, as a link and a QR code.
 */
export function TabletsSection({ shopId }: { shopId: string }) {
  const query = useQuery(tabletsQueryOptions(shopId));
  const create = useCreateTablet(shopId);
  const [created, setCreated] = useState<{ name: string; url: string } | null>(null);
  const form = useForm(tabletCreateSchema, async (values) => {
    const answer = await create.mutateAsync(values);
    setCreated({ name: answer.tablet.name, url: answer.pairingUrl });
  });
  return (
    <Section
      title="Tablette de comptoir"
      lead="Une tablette posée au comptoir affiche en grand le code à scanner et les derniers passages ; l'équipe y saisit un montant (avec le code PIN) et le client scanne le QR code de ce montant. La tablette n'a accès à rien d'autre."
    >
      <div className="flex flex-col gap-4">
        {created ? (
          <Notice tone="success">
            <p className="font-semibold">Tablette « {created.name} » ajoutée</p>
            <p className="mt-1">
              Ouvrez ce lien sur la tablette, ou scannez le QR code avec son appareil photo. Valable une heure, une
              seule fois ; il ne sera plus affiché.
            </p>
            <div className="mt-3 size-48 rounded-xl bg-white p-2">
              <QrImage text={created.url} label={`QR code d'appairage de la tablette « ${created.name} »`} />
            </div>
            <code className="mt-2 block break-all rounded-lg bg-white px-3 py-2 font-mono text-sm text-stone-900 select-all dark:bg-stone-950 dark:text-stone-100">
              {created.url}
            </code>
          </Notice>
        ) : null}
        <Form form={form} className="flex flex-col gap-3" submit="Ajouter la tablette">
          <Field
            label="Nom de la tablette"
            name="name"
            placeholder="Comptoir de l'entrée"
            autoComplete="off"
            error={form.fieldErrors.name}
          />
          <Field
            label="Code PIN de l'équipe"
            name="pin"
            type="password"
            inputMode="numeric"
            autoComplete="new-password"
            maxLength={8}
            hint="4 à 8 chiffres : l'équipe le tape pour saisir un montant. Cinq erreurs bloquent la saisie dix minutes."
            error={form.fieldErrors.pin}
          />
        </Form>
        <QueryState query={query}>
          {({ tablets }) => (
            <SetUpList items={tablets} label="Tablettes de la boutique" none="Aucune tablette pour l'instant.">
              {(t) => <TabletRow shopId={shopId} tablet={t} />}
            </SetUpList>
          )}
        </QueryState>
      </div>
    </Section>
  );
}
