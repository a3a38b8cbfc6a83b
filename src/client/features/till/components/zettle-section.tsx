import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDateTime, formatEuros, formatSigned } from "../../../../domain/format.ts";
import { zettleConnectSchema } from "../../../../domain/schemas/till.ts";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmBox } from "../../../components/ui/confirm-box.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Form } from "../../../components/ui/form.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { useForm } from "../../../lib/use-form.ts";
import {
  type TillConnectionState,
  tillConnectionQueryOptions,
  useConnectZettle,
  useDisconnectTill,
} from "../api/connection.ts";

const MUTED = "text-sm text-stone-700 dark:text-stone-300";

function ConnectForm({ shopId }: { shopId: string }) {
  const connect = useConnectZettle(shopId);
  const form = useForm(
    zettleConnectSchema,
    async (values) => {
      await connect.mutateAsync(values);
    },
    (data) => ({ clientId: data.get("clientId"), apiKey: data.get("apiKey") }),
  );
  return (
    <Form form={form} className="flex flex-col gap-3" submit="Connecter Zettle">
      <ol className={`list-decimal space-y-1 pl-5 ${MUTED}`}>
        <li>Dans my.zettle.com › Intégrations › Clés API, créez une clé avec le droit « READ:PURCHASE ».</li>
        <li>Copiez l'identifiant client et la clé, puis collez-les ici.</li>
        <li>
          À l'encaissement, tapez le code client (Profil › Ma carte client dans l'app) en commentaire d'un article : les
          points sont crédités selon le montant, et repris en cas de remboursement.
        </li>
      </ol>
      <Field
        label="Identifiant client (client ID)"
        name="clientId"
        autoComplete="off"
        spellCheck={false}
        error={form.fieldErrors.clientId}
      />
      <Field
        label="Clé API Zettle"
        name="apiKey"
        type="password"
        autoComplete="off"
        spellCheck={false}
        error={form.fieldErrors.apiKey}
      />
    </Form>
  );
}

function Connected({ shopId, state }: { shopId: string; state: TillConnectionState }) {
  const disconnect = useDisconnectTill(shopId);
  const [asking, setAsking] = useState(false);
  const connection = state.connection!;
  return (
    <div className="flex flex-col gap-3">
      <p className="font-semibold">
        Zettle connecté{" "}
        <span className="font-normal text-stone-700 dark:text-stone-300">
          depuis le {formatDateTime(connection.createdAt)}
        </span>
      </p>
      {connection.status === "refused" ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-200">
          Zettle refuse désormais la clé (révoquée dans my.zettle.com ?) : aucune vente n'est plus créditée. Reconnectez
          avec une nouvelle clé.
        </p>
      ) : (
        <p className={MUTED}>
          {connection.lastEventAt
            ? `Dernière vente reçue : ${formatDateTime(connection.lastEventAt)}`
            : "Aucune vente reçue pour l'instant."}
        </p>
      )}
      {state.sales.length > 0 ? (
        <ul aria-label="Dernières ventes Zettle" className="flex flex-col">
          {state.sales.map((sale) => (
            <li
              key={sale.purchaseId}
              className="flex flex-wrap items-baseline justify-between gap-x-3 border-t border-stone-200 py-2 first:border-t-0 dark:border-stone-800"
            >
              <span>
                {sale.kind === "refund" ? "Remboursement" : "Vente"}
                {sale.purchaseNumber ? ` n° ${sale.purchaseNumber}` : ""} ·{" "}
                {formatEuros(Math.abs(sale.amountCents) / 100)}
                {sale.firstName ? ` · ${sale.firstName}` : ""}
              </span>
              <span className={MUTED}>
                {sale.points !== 0 ? `${formatSigned(sale.points)} · ` : ""}
                {sale.outcomeLabel}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {connection.status === "refused" ? <ConnectForm shopId={shopId} /> : null}
      {asking ? (
        <ConfirmBox
          label="Déconnecter Zettle"
          confirmLabel="Déconnecter"
          isLoading={disconnect.isPending}
          onConfirm={() => disconnect.mutate(undefined, { onSettled: () => setAsking(false) })}
          onCancel={() => setAsking(false)}
        >
          Déconnecter Zettle ? Les ventes ne créditeront plus de points ; l'historique reste.
        </ConfirmBox>
      ) : (
        <Button variant="secondary" className="self-start" onClick={() => setAsking(true)}>
          Déconnecter Zettle
        </Button>
      )}
    </div>
  );
}

/** The till connector (ADR 0051): Zettle connected with the merchant's API key, its last sales and refunds. */
export function ZettleSection({ shopId }: { shopId: string }) {
  const query = useQuery(tillConnectionQueryOptions(shopId));
  return (
    <Section
      title="Caisse Zettle"
      lead="Les ventes encaissées avec Zettle créditent les points de vos clients, et les remboursements les reprennent."
    >
      <QueryState query={query}>
        {(state) => (state.connection ? <Connected shopId={shopId} state={state} /> : <ConnectForm shopId={shopId} />)}
      </QueryState>
    </Section>
  );
}
