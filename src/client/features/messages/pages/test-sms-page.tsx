import { useQuery } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { formatDateTime, formatNumber, plural } from "../../../../domain/format.ts";
import { describeWindowFr } from "../../../../domain/messages/send-window.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field, NumberField } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Card } from "../../../components/ui/page.tsx";
import { TextareaField } from "../../../components/ui/textarea-field.tsx";
import { errorFields } from "../../../lib/api-client.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { tabsOf } from "../../../components/back-office/menu.ts";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import {
  PROVIDER_LABELS_FR,
  type SmsOverview,
  smsQueryOptions,
  useConfirmPhoneCode,
  useRequestSmsBudget,
  useSendPhoneCode,
  useSendTestSms,
} from "../api/sms.ts";
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
  const [value, setValue] = useState(String(Math.max(sms.budget.monthlySegments, sms.request?.monthlySegments ?? 100)));
  const [note, setNote] = useState("");
  const ask = useRequestSmsBudget(shopId);
  const { monthlySegments, usedSegments, max } = sms.budget;
  const share = monthlySegments === 0 ? 0 : Math.min(100, Math.round((usedSegments / monthlySegments) * 100));
  const fields = errorFields(ask.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    ask.mutate({ monthlySegments: Number(value), note });
  };
  return (
    <Card className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">Budget SMS du mois</h2>
      <p data-testid="sms-budget">
        {monthlySegments === 0
          ? "Aucun budget SMS accordé pour l'instant : aucun SMS ne peut partir, pas même un test."
          : `${formatNumber(usedSegments)} SMS utilisés sur ${plural(monthlySegments, "SMS", "SMS")} ce mois-ci.`}
      </p>
      {monthlySegments === 0 && !sms.request ? (
        <p className="text-sm font-medium text-brand-800 dark:text-brand-200">
          Demandez un budget ci-dessous : dès que l'administration de la plateforme l'accorde, vous pourrez vérifier
          votre numéro et envoyer un test.
        </p>
      ) : null}
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
        Les SMS sont payés par l'hébergeur de la plateforme : c'est son administration qui accorde le budget de chaque
        boutique. Un SMS long compte pour plusieurs (un par tranche de 153 caractères, ou 67 avec des accents comme ê).
        Une fois le budget atteint, plus aucun SMS ne part avant le mois suivant.
      </p>
      {sms.request ? (
        <div data-testid="sms-budget-request">
          <Notice tone="info">
            Demande envoyée le {formatDateTime(sms.request.at)} : {plural(sms.request.monthlySegments, "SMS", "SMS")}{" "}
            par mois. L'administration de la plateforme y répondra.
          </Notice>
        </div>
      ) : null}
      <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
        <NumberField
          label="Budget mensuel souhaité (nombre de SMS)"
          min={1}
          max={max}
          value={value}
          onValue={setValue}
          hint={`${formatNumber(max)} SMS par mois au plus sur cette plateforme.`}
          error={fields.monthlySegments}
        />
        <TextareaField
          label="Pour quoi faire ? (facultatif)"
          value={note}
          maxLength={500}
          onValue={setNote}
          error={fields.note}
        />
        <SubmitEnd call={ask} fieldError={fields.monthlySegments} variant="secondary">
          Demander ce budget
        </SubmitEnd>
      </form>
    </Card>
  );
}

/** A form's end: the call's French error (unless its field shows it already), then the submit button. */
function SubmitEnd({
  call,
  fieldError,
  variant,
  children,
}: {
  call: { error: Error | null; isPending: boolean };
  fieldError?: string;
  variant?: "secondary";
  children: ReactNode;
}) {
  return (
    <>
      {call.error && !fieldError ? <Notice tone="error">{call.error.message}</Notice> : null}
      <Button type="submit" variant={variant} isLoading={call.isPending}>
        {children}
      </Button>
    </>
  );
}

/** The owner's own number, verified once by a code: the only one test SMS go to. */
function Phone({ shopId, sms }: { shopId: string; sms: SmsOverview }) {
  const [phone, setPhone] = useState("");
  const [code, setCode] = useState("");
  const sendCode = useSendPhoneCode(shopId);
  const confirm = useConfirmPhoneCode(shopId);
  const phoneFields = errorFields(sendCode.error);
  const codeFields = errorFields(confirm.error);
  const askCode = (event: FormEvent) => {
    event.preventDefault();
    confirm.reset();
    sendCode.mutate(phone);
  };
  const check = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(code, { onSuccess: () => setCode("") });
  };
  return (
    <Card className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">Votre numéro de mobile</h2>
      <p data-testid="sms-phone">
        {sms.phone.verified
          ? `Vérifié : ${sms.phone.verified}. Les SMS de test partent vers ce numéro, et seulement lui.`
          : "Pas encore vérifié : les SMS de test ne partent que vers votre propre numéro, vérifié par un code."}
      </p>
      <form onSubmit={askCode} className="flex flex-col gap-3" noValidate>
        <Field
          label={sms.phone.verified ? "Vérifier un autre numéro" : "Numéro de mobile"}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={phone}
          maxLength={40}
          onValue={setPhone}
          hint="Le vôtre, par exemple 06 12 34 56 78. Le code part par SMS et compte dans le budget."
          error={phoneFields.phone}
        />
        <SubmitEnd call={sendCode} fieldError={phoneFields.phone} variant="secondary">
          Recevoir un code
        </SubmitEnd>
      </form>
      {sms.phone.pending ? (
        <form onSubmit={check} className="flex flex-col gap-3" noValidate>
          <Field
            label={`Code reçu au ${sms.phone.pending}`}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onValue={setCode}
            hint={`Il expire ${plural(sms.phone.codeMinutes, "minute", "minutes")} après son envoi.`}
            error={codeFields.code}
          />
          <SubmitEnd call={confirm} fieldError={codeFields.code}>
            Vérifier
          </SubmitEnd>
        </form>
      ) : null}
      {confirm.isSuccess ? <Notice tone="success">Numéro vérifié.</Notice> : null}
    </Card>
  );
}

function TestForm({ shopId, sms }: { shopId: string; sms: SmsOverview }) {
  const [text, setText] = useState("");
  const send = useSendTestSms(shopId);
  const fields = errorFields(send.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate({ text });
  };
  const result = send.data;
  return (
    <Card className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">Envoyer un SMS de test</h2>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        {sms.phone.verified
          ? `Vers votre numéro vérifié, ${sms.phone.verified} ; ${plural(sms.testsPerHour, "test", "tests")} par heure au plus.`
          : "Vérifiez d'abord votre numéro ci-dessus."}
      </p>
      <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
        <TextareaField
          label="Texte"
          value={text}
          maxLength={918}
          onValue={setText}
          error={fields.text}
          aria-describedby="sms-test-count"
        />
        <SmsCount text={text} id="sms-test-count" />
        <SubmitEnd call={send} fieldError={fields.text}>
          Envoyer le test
        </SubmitEnd>
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

/** In place of the number and the test while no SMS can leave: the code and the test would both be refused. */
function NoTestYet({ sms }: { sms: SmsOverview }) {
  return (
    <Card className="flex flex-col gap-2">
      <h2 className="text-lg font-semibold">Envoyer un SMS de test</h2>
      <p className="text-sm text-stone-700 dark:text-stone-300" data-testid="sms-test-unavailable">
        {sms.budget.monthlySegments === 0
          ? "Possible dès qu'un budget SMS vous est accordé : le code qui vérifie votre numéro et le test partent par SMS et comptent dans ce budget."
          : "Le budget SMS du mois est atteint : les tests reprendront le mois prochain, ou plus tôt si l'administration de la plateforme accorde davantage."}
      </p>
    </Card>
  );
}

function ShopSms({ shopId }: { shopId: string }) {
  const query = useQuery(smsQueryOptions(shopId));
  if (query.isError) return <LoadError error={query.error} onRetry={() => query.refetch()} />;
  if (query.isPending) return <Skeleton blocks={2} />;
  const { monthlySegments, usedSegments } = query.data.budget;
  // The budget comes first (issue 25 row 14): a test is offered only while one SMS can still leave.
  const canSend = usedSegments < monthlySegments;
  return (
    <>
      <Budget key={monthlySegments} shopId={shopId} sms={query.data} />
      {canSend ? (
        <>
          <Phone shopId={shopId} sms={query.data} />
          <TestForm shopId={shopId} sms={query.data} />
        </>
      ) : (
        <NoTestYet sms={query.data} />
      )}
      <Gateway sms={query.data} />
    </>
  );
}

/** /admin/test-sms: the budget the platform granted (and asking for more), one's own number verified, a test SMS to it. */
export default function TestSmsPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      title="Test SMS"
      lead="Voyez ce que vos clients recevront, et ce que cela coûte."
      tabs={tabsOf("Communication")}
    >
      {(shop) => <ShopSms shopId={shop.id} />}
    </BackOfficeFrame>
  );
}
