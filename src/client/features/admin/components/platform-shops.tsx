import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatDateTime, formatDecimal, formatNumber, plural } from "../../../../domain/format.ts";
import { smsSpikeMessage } from "../../../../domain/messages/sms-spike.ts";
import { Button } from "../../../components/ui/button.tsx";
import { NumberField } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { api, errorFields, unwrap } from "../../../lib/api-client.ts";
import { adminKeys } from "../api/keys.ts";
import { ActionError, ReasonForm, useReasonAction, useRefreshConsole } from "./reason-form.tsx";
import { SearchList } from "./search-list.tsx";

type Shop = {
  id: string;
  name: string;
  city: string;
  status: "active" | "suspended";
  suspendedReason: string | null;
  ownerEmail: string | null;
  customers: number;
};

function ShopRow({ shop }: { shop: Shop }) {
  const refresh = useRefreshConsole();
  const suspend = useReasonAction((reason) =>
    unwrap(api.backoffice.platform.shops[":shopId"].suspend.$post({ param: { shopId: shop.id }, json: { reason } })),
  );
  const reactivate = useMutation({
    mutationFn: () => unwrap(api.backoffice.platform.shops[":shopId"].reactivate.$post({ param: { shopId: shop.id } })),
    onSuccess: refresh,
  });
  const error = suspend.call.error ?? reactivate.error;
  return (
    <li className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold">{shop.name}</p>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            {shop.city} · {plural(shop.customers, "client", "clients")}
            {shop.ownerEmail ? ` · ${shop.ownerEmail}` : ""}
          </p>
          {shop.status === "suspended" ? (
            <p className="mt-1 text-sm font-semibold text-red-700 dark:text-red-400">
              Suspendue{shop.suspendedReason ? ` : ${shop.suspendedReason}` : ""}
            </p>
          ) : null}
        </div>
        {shop.status === "suspended" ? (
          <Button variant="secondary" isLoading={reactivate.isPending} onClick={() => reactivate.mutate()}>
            Réactiver
          </Button>
        ) : suspend.isAsking ? null : (
          <Button variant="secondary" onClick={suspend.ask} aria-label={`Suspendre ${shop.name}`}>
            Suspendre
          </Button>
        )}
      </div>
      <ReasonForm action={suspend} label="Motif de la suspension" confirm="Confirmer la suspension" />
      <ActionError error={error} />
    </li>
  );
}

/** Every shop of the platform, searchable: suspend one with a reason, reactivate it. */
export function Shops() {
  return (
    <SearchList
      id="shops"
      title="Boutiques"
      label="Rechercher une boutique (nom, ville)"
      search={(q) => ({
        queryKey: adminKeys.shops(q),
        queryFn: () =>
          unwrap(
            api.backoffice.platform.shops.$get({ query: { ...(q.trim() ? { q } : {}), limit: "50", offset: "0" } }),
          ),
      })}
      itemsOf={(data) => data.shops}
      empty="Aucune boutique ne correspond."
    >
      {(shop) => <ShopRow key={shop.id} shop={shop} />}
    </SearchList>
  );
}

type SmsShop = Awaited<ReturnType<typeof getSmsVolume>>["shops"][number];
const getSmsVolume = () => unwrap(api.backoffice.platform.sms.$get());

function SmsShopRow({ shop, max }: { shop: SmsShop; max: number }) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState(String(shop.request?.monthlySegments ?? shop.monthlySegments));
  const grant = useMutation({
    mutationFn: () =>
      unwrap(
        api.backoffice.platform.shops[":shopId"]["sms-budget"].$put({
          param: { shopId: shop.id },
          json: { monthlySegments: Number(value) },
        }),
      ),
    onSuccess: (data) => queryClient.setQueryData(adminKeys.smsBudgets(), data),
  });
  const fields = errorFields(grant.error);
  return (
    <li className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <p className="font-semibold">{shop.name}</p>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Ce mois-ci : {formatNumber(shop.monthSegments)} sur {plural(shop.monthlySegments, "SMS", "SMS")} accordés ·
        aujourd'hui : {plural(shop.todaySegments, "SMS", "SMS")} · d'habitude : {formatDecimal(shop.usualPerDay)} par
        jour
      </p>
      {shop.spike ? (
        <div className="mt-2">
          <Notice tone="error">{smsSpikeMessage(shop)}</Notice>
        </div>
      ) : null}
      {shop.request ? (
        <p className="mt-2 text-sm font-semibold">
          Demande du {formatDateTime(shop.request.at)} : {plural(shop.request.monthlySegments, "SMS", "SMS")} par mois
          {shop.request.note ? ` — « ${shop.request.note} »` : ""}
        </p>
      ) : null}
      <form
        className="mt-2 flex flex-wrap items-end gap-2"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          grant.mutate();
        }}
      >
        <NumberField
          label={`Budget mensuel de ${shop.name} (SMS)`}
          min={0}
          max={max}
          value={value}
          onValue={setValue}
          error={fields.monthlySegments}
        />
        <Button type="submit" variant="secondary" isLoading={grant.isPending}>
          Accorder
        </Button>
      </form>
      {grant.error && !fields.monthlySegments ? <ActionError error={grant.error} /> : null}
    </li>
  );
}

/** SMS per shop: the budgets the platform grants (only here), the requests, the volume, the spikes. */
export function SmsShops() {
  const volume = useQuery({ queryKey: adminKeys.smsBudgets(), queryFn: getSmsVolume });
  return (
    <Section bare stack id="sms-shops" title="SMS par boutique">
      <QueryState query={volume}>
        {(data) => (
          <>
            <p className="text-sm text-stone-700 dark:text-stone-300">
              Les SMS sont à vos frais : une boutique n'en envoie aucun tant que vous ne lui avez pas accordé de budget
              (au plus {plural(data.max, "SMS", "SMS")} par mois). Alerte quand une boutique envoie dans la journée au
              moins {plural(data.rule.minSegments, "SMS", "SMS")} et plus de {formatDecimal(data.rule.factor)} fois sa
              moyenne quotidienne des {data.rule.baselineDays} jours précédents.
            </p>
            {data.shops.length === 0 ? (
              <p>Aucune boutique n'a de budget SMS ni n'en a demandé.</p>
            ) : (
              <ul className="flex flex-col gap-2">
                {data.shops.map((s) => (
                  <SmsShopRow key={`${s.id}:${s.monthlySegments}:${s.request?.at ?? ""}`} shop={s} max={data.max} />
                ))}
              </ul>
            )}
          </>
        )}
      </QueryState>
    </Section>
  );
}
