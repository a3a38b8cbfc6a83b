import { formatDateTime, formatNumber, plural } from "../../../../domain/format.ts";
import { countSegments } from "../../../../domain/messages/sms-segments.ts";
import { describeWindowFr } from "../../../../domain/messages/send-window.ts";
import { buildSmsText } from "../../../../domain/messages/sms-text.ts";
import { Notice } from "../../../components/ui/notice.tsx";
import { Card } from "../../../components/ui/page.tsx";
import type { SmsOverview } from "../api/sms.ts";
import { SmsCount } from "./sms-count.tsx";

/**
 * The composer's SMS: the text as phones will show it (the shop's name, the title, the
 * body, « STOP au … »), what it costs per person, against the month's budget, and when
 * it will leave (the operator's window for promotional SMS).
 */
export function SmsChannel({
  sms,
  shopName,
  title,
  body,
  recipients,
}: {
  sms: SmsOverview;
  shopName: string;
  title: string;
  body: string;
  recipients: number | null;
}) {
  const text = buildSmsText({ shopName, title, body, stopNumber: sms.stopNumber ?? "…", marketing: true });
  const perPerson = Math.max(1, countSegments(text).segments);
  const left = Math.max(0, sms.budget.monthlySegments - sms.budget.usedSegments);
  const needed = recipients === null ? null : recipients * perPerson;
  return (
    <Card className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">Le SMS</h2>
      <pre
        className="whitespace-pre-wrap break-words rounded-xl bg-stone-100 p-3 font-sans text-sm dark:bg-stone-800"
        data-testid="sms-preview"
      >
        {text}
      </pre>
      <SmsCount text={text} />
      <p data-testid="sms-cost">
        {needed === null
          ? "Calcul du coût…"
          : `${plural(needed, "SMS", "SMS")} pour ${plural(recipients ?? 0, "destinataire", "destinataires")} ; il reste ${formatNumber(left)} SMS au budget du mois.`}
      </p>
      {needed !== null && needed > left ? (
        <Notice tone="error">
          Le budget restant ne couvre pas tous les destinataires : une fois atteint, les SMS suivants ne partent pas.
          Augmentez-le sur la page Test SMS.
        </Notice>
      ) : null}
      {sms.window.openNow ? null : (
        <Notice tone="info">
          Les SMS promotionnels partent {describeWindowFr(sms.window)} : ceux-ci partiront le{" "}
          {formatDateTime(sms.window.nextOpening)}. Le message dans l'application arrive tout de suite.
        </Notice>
      )}
    </Card>
  );
}
