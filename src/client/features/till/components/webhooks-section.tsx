import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDateTime } from "../../../../domain/format.ts";
import { WEBHOOK_EVENT_LABELS_FR, webhookCreateSchema } from "../../../../domain/schemas/till.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Form } from "../../../components/ui/form.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { useForm } from "../../../lib/use-form.ts";
import {
  type Delivery,
  deliveriesQueryOptions,
  useCreateWebhook,
  useDeleteWebhook,
  useResendDelivery,
  type Webhook,
  webhooksQueryOptions,
} from "../api/webhooks.ts";
import { ShownOnce } from "./shown-once.tsx";
import { ChoiceBoxes, SetUpList } from "./till-lists.tsx";

const STATUS_FR: Record<Delivery["status"], string> = { pending: "En cours", delivered: "Reçu", failed: "Échec" };

function tryLine(a: Delivery["attempts"][number]) {
  const result = a.statusCode === null ? (a.error ?? "Pas de réponse") : `réponse ${a.statusCode}`;
  return `Essai ${a.attempt}${a.manual ? " (renvoyé)" : ""} · ${formatDateTime(a.at)} · ${result}`;
}

function Deliveries({ shopId, webhookId }: { shopId: string; webhookId: string }) {
  const query = useQuery({ ...deliveriesQueryOptions(shopId, webhookId), refetchInterval: 3000 });
  const resend = useResendDelivery(shopId, webhookId);
  return (
    <QueryState query={query}>
      {({ deliveries }) =>
        deliveries.length === 0 ? (
          <p className="text-sm text-stone-700 dark:text-stone-300">Aucun envoi pour l'instant.</p>
        ) : (
          <ul aria-label="Envois" className="flex flex-col gap-3">
            {deliveries.map((d) => (
              <li key={d.id} className="rounded-xl border border-stone-200 p-3 dark:border-stone-800">
                <p className="font-semibold">
                  {d.typeLabel} · {STATUS_FR[d.status]}
                </p>
                <ul className="mt-1 text-sm text-stone-700 dark:text-stone-300">
                  {d.attempts.map((a) => (
                    <li key={a.attempt}>{tryLine(a)}</li>
                  ))}
                </ul>
                <Button
                  variant="secondary"
                  className="mt-2"
                  isLoading={resend.isPending && resend.variables === d.id}
                  onClick={() => resend.mutate(d.id)}
                  aria-label={`Renvoyer « ${d.typeLabel} » du ${formatDateTime(d.createdAt)}`}
                >
                  Renvoyer
                </Button>
              </li>
            ))}
          </ul>
        )
      }
    </QueryState>
  );
}

function WebhookRow({ shopId, webhook }: { shopId: string; webhook: Webhook }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteWebhook(shopId);
  return (
    <li className="flex flex-col gap-2 border-t border-stone-200 py-3 first:border-t-0 dark:border-stone-800">
      <p className="break-all font-mono text-sm">{webhook.url}</p>
      <p className="text-sm text-stone-700 dark:text-stone-300">{webhook.eventLabels.join(" · ")}</p>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? "Masquer les envois" : "Voir les envois"}
        </Button>
        <Button variant="ghost" isLoading={remove.isPending} onClick={() => remove.mutate(webhook.id)}>
          Supprimer
        </Button>
      </div>
      {open ? <Deliveries shopId={shopId} webhookId={webhook.id} /> : null}
    </li>
  );
}

/** Webhooks: an address per event, its signing secret (shown once), the delivery log. */
export function WebhooksSection({ shopId }: { shopId: string }) {
  const query = useQuery(webhooksQueryOptions(shopId));
  const create = useCreateWebhook(shopId);
  const [created, setCreated] = useState<string | null>(null);
  const form = useForm(
    webhookCreateSchema,
    async (values) => {
      setCreated((await create.mutateAsync(values)).secret);
    },
    (data) => ({ url: data.get("url"), events: data.getAll("events") }),
  );
  return (
    <Section
      title="Webhooks"
      lead="Fidèle prévient votre logiciel à chaque événement choisi, par une requête signée (Standard Webhooks), renvoyée plusieurs fois s'il ne répond pas."
    >
      <div className="flex flex-col gap-4">
        {created ? (
          <ShownOnce label="Secret de signature" value={created}>
            <p className="mt-2">Votre logiciel s'en sert pour vérifier l'en-tête webhook-signature.</p>
          </ShownOnce>
        ) : null}
        <Form form={form} className="flex flex-col gap-3" submit="Ajouter l'adresse">
          <Field
            label="Adresse de réception"
            name="url"
            type="url"
            placeholder="https://exemple.fr/fidele"
            autoComplete="off"
            error={form.fieldErrors.url}
          />
          <ChoiceBoxes
            name="events"
            legend="Événements"
            labels={WEBHOOK_EVENT_LABELS_FR}
            error={form.fieldErrors.events}
          />
        </Form>
        <QueryState query={query}>
          {({ webhooks }) => (
            <SetUpList items={webhooks} label="Adresses de webhooks" none="Aucune adresse pour l'instant.">
              {(w) => <WebhookRow shopId={shopId} webhook={w} />}
            </SetUpList>
          )}
        </QueryState>
      </div>
    </Section>
  );
}
