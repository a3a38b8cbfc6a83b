import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { formatDateTime, formatDecimal, formatNumber, plural } from "../../../../domain/format.ts";
import { smsSpikeMessage } from "../../../../domain/sms/spike.ts";
import { ActionError, ReasonForm } from "../components/reason-form.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { ApiError, api, unwrap } from "../../../lib/api-client.ts";
import { DailyBars } from "../components/daily-bars.tsx";
import { ConsolePage, QueryState } from "../console-frame.tsx";
import { Users } from "../components/platform-users.tsx";

function Kpi({ label, value, detail }: { label: string; value: number; detail?: string }) {
  return (
    <div className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900">
      <dt className="text-sm font-medium text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="mt-1 text-3xl font-bold tabular-nums tracking-tight">{formatNumber(value)}</dd>
      {detail ? <dd className="mt-0.5 text-sm text-stone-600 dark:text-stone-400">{detail}</dd> : null}
    </div>
  );
}

const SEND_CHANNEL_LABELS = { push: "push", email: "par courriel", sms: "par SMS" } as const;

function Overview() {
  const overview = useQuery({ queryKey: ["admin", "overview"], queryFn: () => unwrap(api.admin.overview.$get()) });
  return (
    <QueryState query={overview}>
      {(data) => (
        <>
          <section aria-labelledby="activity-title" className="flex flex-col gap-3">
            <h2 id="activity-title" className="text-lg font-semibold">
              Activité des {data.days} derniers jours
            </h2>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              <Kpi
                label="Boutiques"
                value={data.activity.shops}
                detail={
                  data.activity.suspendedShops > 0
                    ? plural(data.activity.suspendedShops, "suspendue", "suspendues")
                    : undefined
                }
              />
              <Kpi
                label="Comptes"
                value={data.activity.shoppers}
                detail={plural(data.activity.newShoppers, "nouveau", "nouveaux")}
              />
              <Kpi label="Passages" value={data.activity.scans} />
              <Kpi label="Récompenses remises" value={data.activity.redemptions} />
              <Kpi label="Messages envoyés" value={data.activity.messages} />
            </dl>
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              <DailyBars title="Passages" points={data.daily.map((d) => ({ date: d.date, value: d.scans }))} />
              <DailyBars
                title="Nouveaux comptes"
                points={data.daily.map((d) => ({ date: d.date, value: d.signups }))}
              />
              <DailyBars
                title="Récompenses remises"
                points={data.daily.map((d) => ({ date: d.date, value: d.redemptions }))}
              />
              <DailyBars title="Messages" points={data.daily.map((d) => ({ date: d.date, value: d.messages }))} />
            </div>
          </section>
          <section aria-labelledby="health-title" className="flex flex-col gap-2">
            <h2 id="health-title" className="text-lg font-semibold">
              Santé
            </h2>
            <ul className="rounded-2xl border border-stone-200 bg-white p-4 text-sm dark:border-stone-800 dark:bg-stone-900">
              <li>
                Base de données : {data.health.database}
                {data.health.databaseUp
                  ? ` — ${plural(data.health.pool.total, "connexion", "connexions")} (${plural(data.health.pool.idle, "libre", "libres")}, ${formatNumber(data.health.pool.waiting)} en attente)`
                  : " — ne répond pas"}
              </li>
              <li>Boucle d'événements : {formatDecimal(data.health.eventLoopDelayMs)} ms de retard (99e centile)</li>
              <li>
                Tâches de fond :{" "}
                {data.health.jobsStarted
                  ? `${plural(data.health.jobsQueued, "en attente", "en attente")}, ${plural(data.health.jobsFailed, "en échec", "en échec")}`
                  : "moteur pas encore démarré"}
              </li>
              <li>
                Courriels : {plural(data.health.outbox, "dans la boîte d'envoi", "dans la boîte d'envoi")}
                {data.health.outboxFailed > 0 ? `, ${plural(data.health.outboxFailed, "en échec", "en échec")}` : ""}
              </li>
              {data.health.sends.map((send) => (
                <li key={send.channel}>
                  Envois {SEND_CHANNEL_LABELS[send.channel]} : {plural(send.delivered, "remis", "remis")},{" "}
                  {plural(send.failed, "en échec", "en échec")}
                </li>
              ))}
            </ul>
          </section>
        </>
      )}
    </QueryState>
  );
}

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
  const queryClient = useQueryClient();
  const [reason, setReason] = useState("");
  const [asking, setAsking] = useState(false);
  const done = () => {
    setAsking(false);
    setReason("");
    return queryClient.invalidateQueries({ queryKey: ["admin"] });
  };
  const suspend = useMutation({
    mutationFn: () =>
      unwrap(api.backoffice.platform.shops[":shopId"].suspend.$post({ param: { shopId: shop.id }, json: { reason } })),
    onSuccess: done,
  });
  const reactivate = useMutation({
    mutationFn: () => unwrap(api.backoffice.platform.shops[":shopId"].reactivate.$post({ param: { shopId: shop.id } })),
    onSuccess: done,
  });
  const error = suspend.error ?? reactivate.error;
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
        ) : asking ? null : (
          <Button variant="secondary" onClick={() => setAsking(true)} aria-label={`Suspendre ${shop.name}`}>
            Suspendre
          </Button>
        )}
      </div>
      {asking ? (
        <ReasonForm
          label="Motif de la suspension"
          confirm="Confirmer la suspension"
          reason={reason}
          onReason={setReason}
          onSubmit={() => suspend.mutate()}
          onCancel={() => setAsking(false)}
          isPending={suspend.isPending}
        />
      ) : null}
      <ActionError error={error} />
    </li>
  );
}

function Shops() {
  const [q, setQ] = useState("");
  const shops = useQuery({
    queryKey: ["admin", "shops", q],
    queryFn: () =>
      unwrap(api.backoffice.platform.shops.$get({ query: { ...(q.trim() ? { q } : {}), limit: "50", offset: "0" } })),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="shops-title" className="flex flex-col gap-3">
      <h2 id="shops-title" className="text-lg font-semibold">
        Boutiques
      </h2>
      <Field
        label="Rechercher une boutique (nom, ville)"
        type="search"
        value={q}
        onChange={(e) => setQ(e.target.value)}
      />
      <QueryState query={shops}>
        {(data) =>
          data.shops.length === 0 ? (
            <p>Aucune boutique ne correspond.</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {data.shops.map((s) => (
                <ShopRow key={s.id} shop={s} />
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}

/** A message's text with its links made clickable (a confirmation link, a reset link…). */
function linksOf(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"]+/g) ?? [])];
}

function Outbox() {
  const outbox = useQuery({ queryKey: ["admin", "outbox"], queryFn: () => unwrap(api.admin.outbox.$get()) });
  return (
    <section aria-labelledby="outbox-title" className="flex flex-col gap-3">
      <h2 id="outbox-title" className="text-lg font-semibold">
        Boîte d'envoi des courriels
      </h2>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        Sans serveur SMTP, les courriels restent ici : ouvrez le lien d'un message pour confirmer un compte à la place
        de son destinataire.
      </p>
      <QueryState query={outbox}>
        {(data) =>
          data.messages.length === 0 ? (
            <p>Aucun courriel.</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {data.messages.map((m) => (
                <li
                  key={m.id}
                  className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
                >
                  <p className="font-semibold">{m.subject}</p>
                  <p className="text-sm text-stone-600 dark:text-stone-400">
                    À {m.to} · {formatDateTime(m.createdAt)} ·{" "}
                    {m.status === "sent" ? "envoyé" : m.status === "failed" ? "échec" : "gardé ici"}
                  </p>
                  <ul className="mt-1 flex flex-col gap-1">
                    {linksOf(m.text).map((href) => (
                      <li key={href} className="break-all text-sm">
                        <a href={href} className="font-semibold text-brand-800 underline dark:text-brand-200">
                          {href}
                        </a>
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
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
    onSuccess: (data) => queryClient.setQueryData(["admin", "sms"], data),
  });
  const fields = grant.error instanceof ApiError ? grant.error.fields : {};
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
        <Field
          label={`Budget mensuel de ${shop.name} (SMS)`}
          type="number"
          inputMode="numeric"
          min={0}
          max={max}
          value={value}
          onChange={(e) => setValue(e.target.value)}
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
function SmsShops() {
  const volume = useQuery({ queryKey: ["admin", "sms"], queryFn: getSmsVolume });
  return (
    <section aria-labelledby="sms-shops-title" className="flex flex-col gap-3">
      <h2 id="sms-shops-title" className="text-lg font-semibold">
        SMS par boutique
      </h2>
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
    </section>
  );
}

const SMS_STATUS_FR = { kept: "gardé ici", sent: "envoyé", failed: "échec" } as const;
const SMS_KIND_FR = { test: "test", campaign: "campagne", verification: "code de vérification" } as const;

/** Every SMS (tests and campaigns), with what the gateway answered; without a gateway they stay here. */
function SmsOutbox() {
  const outbox = useQuery({ queryKey: ["admin", "sms-outbox"], queryFn: () => unwrap(api.sms.outbox.$get()) });
  return (
    <section aria-labelledby="sms-outbox-title" className="flex flex-col gap-3">
      <h2 id="sms-outbox-title" className="text-lg font-semibold">
        Boîte d'envoi des SMS
      </h2>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        Sans passerelle SMS configurée (SMS_PROVIDER), les SMS restent ici ; sinon chacun est listé avec la réponse de
        la passerelle.
      </p>
      <QueryState query={outbox}>
        {(data) =>
          data.messages.length === 0 ? (
            <p>Aucun SMS.</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {data.messages.map((m) => (
                <li
                  key={m.id}
                  className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
                >
                  <p className="whitespace-pre-wrap break-words">{m.text}</p>
                  <p className="text-sm text-stone-600 dark:text-stone-400">
                    À {m.to}
                    {m.shopName ? ` · ${m.shopName}` : ""} · {SMS_KIND_FR[m.kind]} · {plural(m.segments, "SMS", "SMS")}{" "}
                    · {formatDateTime(m.createdAt)} · {SMS_STATUS_FR[m.status]}
                  </p>
                  {m.answer && m.status !== "kept" ? (
                    <p className="break-all text-xs text-stone-600 dark:text-stone-400">{m.answer}</p>
                  ) : null}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}

/** The platform admin's /admin: the platform at a glance, its shops, its mail. */
export default function PlatformPage() {
  return (
    <ConsolePage title="Administration" isHome lead="La plateforme en un coup d'œil.">
      <Notice tone="info">
        Voir aussi :{" "}
        <Link className="font-semibold underline" to="/admin/logs">
          le journal
        </Link>
        ,{" "}
        <Link className="font-semibold underline" to="/admin/connected">
          les connectés
        </Link>{" "}
        et{" "}
        <Link className="font-semibold underline" to="/admin/sessions">
          les sessions
        </Link>
        .
      </Notice>
      <Overview />
      <Shops />
      <SmsShops />
      <Users />
      <Outbox />
      <SmsOutbox />
    </ConsolePage>
  );
}
