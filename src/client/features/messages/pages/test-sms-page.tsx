import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { formatDateTime, formatNumber, plural } from "../../../../domain/format.ts";
import { describeWindowFr } from "../../../../domain/sms/send-window.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Card } from "../../../components/ui/page.tsx";
import { TextareaField } from "../../../components/ui/textarea-field.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { PROVIDER_LABELS_FR, type SmsOverview, smsQueryOptions, useSendTestSms, useSetSmsBudget } from "../api/sms.ts";
import { LoadError, Loading, MessagesFrame, WithShop } from "../components/back-office-frame.tsx";
import { SmsCount } from "../components/sms-count.tsx";

function Gateway({ sms }: { sms: SmsOverview }) {
  return (
    <Card className="flex flex-col gap-2">
      <h2 className="text-lg font-semibold">Passerelle SMS</h2>
      <p data-testid="sms-provider">{PROVIDER_LABELS_FR[sms.provider]}</p>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        Chaque SMS promotionnel se termine par « STOP au {sms.stopNumber ?? "…"} » : une réponse STOP désinscrit le
        client.
      </p>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        Les SMS promotionnels partent {describeWindowFr(sms.window)}
        {sms.window.openNow
          ? " : c'est le cas en ce moment."
          : ` : les prochains partiront le ${formatDateTime(sms.window.nextOpening)}.`}
      </p>
    </Card>
  );
}

function Budget({ shopId, sms }: { shopId: string; sms: SmsOverview }) {
  const [value, setValue] = useState(String(sms.budget.monthlySegments));
  const save = useSetSmsBudget(shopId);
  const { monthlySegments, usedSegments, max } = sms.budget;
  const share = monthlySegments === 0 ? 0 : Math.min(100, Math.round((usedSegments / monthlySegments) * 100));
  const fields = save.error instanceof ApiError ? save.error.fields : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(Number(value));
  };
  return (
    <Card className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">Budget SMS du mois</h2>
      <p data-testid="sms-budget">
        {formatNumber(usedSegments)} SMS utilisés sur {plural(monthlySegments, "SMS", "SMS")} ce mois-ci.
      </p>
      <div
        role="progressbar"
        aria-label="Budget SMS utilisé"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={share}
        className="h-3 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
      >
        <div className="h-full bg-brand-700" style={{ width: `${share}%` }} />
      </div>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Un SMS long compte pour plusieurs (un par tranche de 153 caractères, ou 67 avec des accents comme ê). Une fois
        le budget atteint, plus aucun SMS ne part avant le mois suivant.
      </p>
      <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
        <Field
          label="Budget mensuel (nombre de SMS)"
          type="number"
          inputMode="numeric"
          min={0}
          max={max}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          hint={`${formatNumber(max)} SMS par mois au plus sur cette plateforme.`}
          error={fields.monthlySegments}
        />
        {save.error && !fields.monthlySegments ? <Notice tone="error">{save.error.message}</Notice> : null}
        {save.isSuccess ? <Notice tone="success">Budget enregistré.</Notice> : null}
        <Button type="submit" variant="secondary" isLoading={save.isPending}>
          Enregistrer le budget
        </Button>
      </form>
    </Card>
  );
}

function TestForm({ shopId }: { shopId: string }) {
  const [to, setTo] = useState("");
  const [text, setText] = useState("");
  const send = useSendTestSms(shopId);
  const fields = send.error instanceof ApiError ? send.error.fields : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate({ to, text });
  };
  const result = send.data;
  return (
    <Card className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">Envoyer un SMS de test</h2>
      <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
        <Field
          label="Numéro de mobile"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={to}
          maxLength={40}
          onChange={(e) => setTo(e.target.value)}
          hint="Le vôtre, par exemple 06 12 34 56 78."
          error={fields.to}
        />
        <TextareaField
          label="Texte"
          value={text}
          maxLength={918}
          onChange={(e) => setText(e.target.value)}
          error={fields.text}
          aria-describedby="sms-test-count"
        />
        <SmsCount text={text} id="sms-test-count" />
        {send.error && !fields.to && !fields.text ? <Notice tone="error">{send.error.message}</Notice> : null}
        <Button type="submit" isLoading={send.isPending}>
          Envoyer le test
        </Button>
      </form>
      {result ? (
        <section aria-label="Résultat de l'envoi" className="flex flex-col gap-2" data-testid="sms-test-result">
          <Notice tone={result.ok ? "success" : "error"}>
            {result.ok
              ? result.provider === "outbox"
                ? `Gardé dans la boîte d'envoi (aucune passerelle) : ${plural(result.segments, "SMS", "SMS")}, ${result.encoding}.`
                : `Accepté par la passerelle : ${plural(result.segments, "SMS", "SMS")}, ${result.encoding}.`
              : "La passerelle a refusé le SMS : il n'est pas décompté du budget."}
          </Notice>
          <p className="text-sm font-semibold">Réponse de la passerelle</p>
          <pre className="whitespace-pre-wrap break-all rounded-xl bg-stone-100 p-3 text-xs dark:bg-stone-800">
            {result.answer}
          </pre>
        </section>
      ) : null}
    </Card>
  );
}

function ShopSms({ shopId }: { shopId: string }) {
  const query = useQuery(smsQueryOptions(shopId));
  if (query.isPending) return <Loading />;
  if (query.error) return <LoadError error={query.error} />;
  return (
    <>
      <Gateway sms={query.data} />
      <TestForm shopId={shopId} />
      <Budget key={query.data.budget.monthlySegments} shopId={shopId} sms={query.data} />
    </>
  );
}

/** /admin/test-sms: a test SMS to oneself (the gateway's answer, segments, UCS-2), and the monthly budget. */
export default function TestSmsPage() {
  return (
    <MessagesFrame title="Test SMS" lead="Voyez ce que vos clients recevront, et ce que cela coûte.">
      <WithShop>{(shopId) => <ShopSms shopId={shopId} />}</WithShop>
    </MessagesFrame>
  );
}
