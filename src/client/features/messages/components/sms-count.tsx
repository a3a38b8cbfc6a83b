import { formatList, plural } from "../../../../domain/format.ts";
import { countSegments, describeEncodingFr } from "../../../../domain/messages/sms-segments.ts";

/**
 * What a text costs in SMS, live as one types (src/domain/messages/sms-segments.ts): the number
 * of SMS, the characters left in the last one, and which characters force Unicode.
 */
export function SmsCount({ text, id }: { text: string; id?: string }) {
  const count = countSegments(text);
  const ucs2 = count.encoding === "UCS-2";
  return (
    <div
      id={id}
      role="status"
      aria-live="polite"
      data-testid="sms-count"
      className="flex flex-col gap-1 rounded-xl bg-stone-100 px-4 py-3 text-sm dark:bg-stone-800"
    >
      <p className="font-semibold">
        {count.segments === 0
          ? "0 SMS"
          : `${plural(count.segments, "SMS", "SMS")} · ${plural(count.remaining, "caractère restant", "caractères restants")} dans le dernier`}
      </p>
      <p>{describeEncodingFr(count)}</p>
      {ucs2 ? (
        <p className="text-amber-900 dark:text-amber-200" data-testid="sms-ucs2">
          {formatList(count.nonGsm.map((c) => `« ${c} »`))} {count.nonGsm.length > 1 ? "imposent" : "impose"} l'Unicode
          (UCS-2) : remplacez {count.nonGsm.length > 1 ? "ces caractères" : "ce caractère"} (par exemple ê → e) pour
          passer à 160 caractères par SMS.
        </p>
      ) : null}
    </div>
  );
}
