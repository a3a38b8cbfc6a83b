import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDateTime } from "../../../../domain/format.ts";
import { API_SCOPE_LABELS_FR, apiKeyCreateSchema } from "../../../../domain/schemas/till.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Form } from "../../../components/ui/form.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { useForm } from "../../../lib/use-form.ts";
import { type ApiKey, apiKeysQueryOptions, useCreateApiKey, useRevokeApiKey } from "../api/api-keys.ts";
import { ShownOnce } from "./shown-once.tsx";
import { ChoiceBoxes, SetUpList } from "./till-lists.tsx";

function KeyRow({ shopId, apiKey }: { shopId: string; apiKey: ApiKey }) {
  const revoke = useRevokeApiKey(shopId);
  return (
    <li className="flex flex-col gap-1 border-t border-stone-200 py-3 first:border-t-0 dark:border-stone-800">
      <p className="font-semibold">
        {apiKey.name}{" "}
        <span className="font-mono text-sm font-normal text-stone-600 dark:text-stone-400">{apiKey.prefix}…</span>
      </p>
      <p className="text-sm text-stone-700 dark:text-stone-300">{apiKey.scopeLabels.join(" · ")}</p>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        {apiKey.lastUsedAt ? `Dernière utilisation : ${formatDateTime(apiKey.lastUsedAt)}` : "Jamais utilisée"}
        {apiKey.revokedAt ? ` · Révoquée le ${formatDateTime(apiKey.revokedAt)}` : ""}
      </p>
      {apiKey.revokedAt ? null : (
        <Button
          variant="secondary"
          className="self-start"
          isLoading={revoke.isPending}
          onClick={() => revoke.mutate(apiKey.id)}
          aria-label={`Révoquer la clé « ${apiKey.name} »`}
        >
          Révoquer
        </Button>
      )}
    </li>
  );
}

/** The shop's API keys: a new one (shown once), the list with last use, revocation. */
export function ApiKeysSection({ shopId }: { shopId: string }) {
  const query = useQuery(apiKeysQueryOptions(shopId));
  const create = useCreateApiKey(shopId);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const form = useForm(
    apiKeyCreateSchema,
    async (values) => {
      const answer = await create.mutateAsync(values);
      setCreated({ name: answer.key.name, secret: answer.secret });
    },
    (data) => ({ name: data.get("name"), scopes: data.getAll("scopes") }),
  );
  return (
    <Section
      title="Clés d'API"
      lead="Pour votre caisse ou un logiciel : retrouver un client par son code, créditer un passage ou un montant, remettre une récompense. Documentation : /api/docs (rubrique « till »)."
    >
      <div className="flex flex-col gap-4">
        {created ? <ShownOnce label={`Votre clé « ${created.name} »`} value={created.secret} /> : null}
        <Form form={form} className="flex flex-col gap-3" submit="Créer la clé">
          <Field
            label="Nom de la clé"
            name="name"
            placeholder="Caisse du comptoir"
            autoComplete="off"
            error={form.fieldErrors.name}
          />
          <ChoiceBoxes
            name="scopes"
            legend="Ce que la clé peut faire"
            labels={API_SCOPE_LABELS_FR}
            error={form.fieldErrors.scopes}
          />
        </Form>
        <QueryState query={query}>
          {({ keys }) => (
            <SetUpList items={keys} label="Clés de la boutique" none="Aucune clé pour l'instant.">
              {(k) => <KeyRow shopId={shopId} apiKey={k} />}
            </SetUpList>
          )}
        </QueryState>
      </div>
    </Section>
  );
}
