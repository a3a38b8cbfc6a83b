import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { formatDateTime, formatList, formatNumber, plural } from "../../../../domain/format.ts";
import {
  PLATFORM_AUDIENCE_LABELS_FR,
  type PlatformAudience,
  type Segment,
  type SegmentKind,
} from "../../../../domain/messages/segments.ts";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { Checkbox, Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Card } from "../../../components/ui/page.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { TextareaField } from "../../../components/ui/textarea-field.tsx";
import { errorFields } from "../../../lib/api-client.ts";
import { bindDraft } from "../../../lib/bind-draft.ts";
import { audienceQueryOptions, type Draft, type SenderScope, useSendMessage } from "../api/composer.ts";
import { smsQueryOptions } from "../api/sms.ts";
import { PhonePreview } from "./phone-preview.tsx";
import { SmsChannel } from "./sms-channel.tsx";
import { SegmentFields } from "./segment-fields.tsx";
import { SendWhen } from "./send-when.tsx";

type Tier = { id: string; name: string };
type Channels = { push: boolean; email: boolean; sms: boolean };

const NO_MESSAGE = { title: "", body: "", imageUrl: "", linkUrl: "" };

/** The channels beside the app, ticked in this order (SMS for shops only). */
const CHANNELS: readonly (readonly [keyof Channels, string])[] = [
  ["push", "Notification push aussi, pour ceux qui l'ont acceptée"],
  ["email", "E-mail aussi, pour ceux qui l'ont accepté"],
  ["sms", "SMS aussi, pour ceux qui l'ont accepté et ont donné leur numéro"],
];

/** ", dont 12 par notification push et 30 par e-mail" for the ticked channels. */
function channelCounts(data: { push: number; email: number; sms: number }, on: Channels) {
  const parts = [
    ...(on.push ? [`${formatNumber(data.push)} par notification push`] : []),
    ...(on.email ? [`${formatNumber(data.email)} par e-mail`] : []),
    ...(on.sms ? [`${formatNumber(data.sms)} par SMS`] : []),
  ];
  return parts.length > 0 ? `, dont ${formatList(parts)}` : "";
}

export function segmentOf(kind: SegmentKind, days: number, tierId: string): Segment {
  switch (kind) {
    case "vip":
      return { kind, tierId };
    case "visited_within":
    case "not_seen_for":
      return { kind, days };
    default:
      return { kind } as Segment;
  }
}

/** The composer: audience, count, channels, text, preview, now or later. Shared by shops and the platform. */
export function ComposerForm({
  scope,
  senderName,
  tiers = [],
  quota,
}: {
  scope: SenderScope;
  senderName: string;
  tiers?: Tier[];
  /** A shop's quota of messages (ADR 0032) and what it used. */
  quota?: { perDay: number; perMonth: number; today: number; month: number };
}) {
  const [kind, setKind] = useState<SegmentKind>("all");
  const [days, setDays] = useState(30);
  const [tierId, setTierId] = useState(tiers[0]?.id ?? "");
  const [audience, setAudience] = useState<PlatformAudience>("all_shoppers");
  const [message, setMessage] = useState(NO_MESSAGE);
  const [channels, setChannels] = useState<Channels>({ push: true, email: false, sms: false });
  const { title, body, imageUrl } = message;
  const { push, sms } = channels;
  const smsInfo = useQuery({
    ...smsQueryOptions(scope.kind === "shop" ? scope.shopId : ""),
    enabled: scope.kind === "shop",
  });
  const [when, setWhen] = useState<"now" | "later">("now");
  const [at, setAt] = useState("");
  const send = useSendMessage(scope);
  const [sent, setSent] = useState<{ title: string; scheduledAt: string | null } | null>(null);

  const segment = segmentOf(kind, days, tierId);
  const segmentReady = kind !== "vip" || tierId !== "";
  const count = useQuery({
    ...audienceQueryOptions(scope, { segment, audience, ...channels }),
    enabled: segmentReady,
    placeholderData: keepPreviousData,
  });
  const fields = errorFields(send.error);
  const field = bindDraft(message, (patch) => setMessage((m) => ({ ...m, ...patch })), fields);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const scheduledAt = when === "later" && at ? new Date(at).toISOString() : null;
    const draft: Draft = { ...message, ...channels, scheduledAt, segment, audience };
    send.mutate(draft, {
      onSuccess: () => {
        setSent({ title, scheduledAt });
        setMessage(NO_MESSAGE);
      },
    });
  };

  return (
    <div className="grid grid-cols-1 gap-5 md:grid-cols-[minmax(0,1fr)_auto] [&>*]:min-w-0">
      <form onSubmit={submit} className="flex min-w-0 flex-col gap-5" noValidate>
        {sent ? (
          <Notice tone="success">
            {sent.scheduledAt
              ? `« ${sent.title} » partira le ${formatDateTime(sent.scheduledAt)}.`
              : `« ${sent.title} » est en cours d'envoi.`}{" "}
            <ButtonLink
              to={scope.kind === "shop" ? "/admin/message" : "/admin/push#envoyes"}
              variant="ghost"
              className="min-h-0 px-0 underline"
            >
              Suivre l'envoi
            </ButtonLink>
          </Notice>
        ) : null}
        <Card className="flex flex-col gap-4">
          <h2 className="text-lg font-semibold">À qui ?</h2>
          {scope.kind === "shop" ? (
            <SegmentFields
              kind={kind}
              onKind={setKind}
              tiers={tiers}
              tierId={tierId}
              onTierId={setTierId}
              days={days}
              onDays={setDays}
              daysError={fields["segment.days"]}
            />
          ) : (
            <SelectField label="Destinataires" value={audience} onValue={(v) => setAudience(v as PlatformAudience)}>
              {Object.entries(PLATFORM_AUDIENCE_LABELS_FR).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </SelectField>
          )}
          {CHANNELS.filter(([channel]) => channel !== "sms" || scope.kind === "shop").map(([channel, label]) => (
            <Checkbox
              key={channel}
              label={label}
              checked={channels[channel]}
              onChange={(e) => setChannels((c) => ({ ...c, [channel]: e.target.checked }))}
            />
          ))}
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Toujours dans l'application. Au plus 2 notifications push promotionnelles par semaine et par client :
            au-delà, le message attend dans l'application.
          </p>
          <p
            role="status"
            aria-live="polite"
            data-testid="audience-count"
            className="rounded-xl bg-brand-50 px-4 py-3 font-semibold text-brand-900 dark:bg-stone-800 dark:text-brand-100"
          >
            {count.data
              ? `${plural(count.data.total, "personne recevra", "personnes recevront")} ce message${channelCounts(count.data, channels)}.`
              : "Calcul du nombre de destinataires…"}
          </p>
        </Card>
        <Card className="flex flex-col gap-4">
          <h2 className="text-lg font-semibold">Le message</h2>
          <Field label="Titre" maxLength={80} {...field("title")} required />
          <TextareaField label="Texte" maxLength={1000} {...field("body")} required />
          <Field
            label="Image (facultatif)"
            hint="L'adresse d'une image, commençant par https://"
            {...field("imageUrl")}
            inputMode="url"
          />
          <Field
            label="Lien (facultatif)"
            hint="Une page à ouvrir depuis le message"
            {...field("linkUrl")}
            inputMode="url"
          />
        </Card>
        {sms && smsInfo.data ? (
          <SmsChannel
            sms={smsInfo.data}
            shopName={senderName}
            title={title}
            body={body}
            recipients={count.data?.sms ?? null}
          />
        ) : null}
        <Card className="flex flex-col gap-4">
          <SendWhen when={when} onWhen={setWhen} at={at} onAt={setAt} error={fields.scheduledAt} />
          {quota ? (
            <p className="text-sm text-stone-700 dark:text-stone-300" data-testid="message-quota">
              Au plus {plural(quota.perDay, "message", "messages")} par jour et {formatNumber(quota.perMonth)} par mois
              : {formatNumber(quota.today)} aujourd'hui, {formatNumber(quota.month)} ce mois-ci.
            </p>
          ) : null}
          {send.error ? <Notice tone="error">{send.error.message}</Notice> : null}
          <Button type="submit" isLoading={send.isPending} disabled={!segmentReady}>
            {when === "later" ? "Programmer l'envoi" : "Envoyer"}
          </Button>
        </Card>
      </form>
      <div className="md:sticky md:top-20 md:self-start">
        <h2 className="mb-3 text-center text-sm font-semibold text-stone-600 dark:text-stone-400">Aperçu</h2>
        <PhonePreview sender={senderName} title={title} body={body} imageUrl={imageUrl} withPush={push} />
      </div>
    </div>
  );
}
