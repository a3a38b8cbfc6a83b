import { useEffect, useId, useState } from "react";
import { formatAmount } from "../../../../domain/format.ts";
import { formatCents } from "../../../../domain/loyalty/amount.ts";
import { tabletAmountFormSchema } from "../../../../domain/schemas/till.ts";
import { QrImage } from "../../../components/qr/qr-image.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Form } from "../../../components/ui/form.tsx";
import { useForm } from "../../../lib/use-form.ts";
import { type AmountCode, useAmountCodeStatus, useCreateAmountCode } from "../api/tablet.ts";
import { PurchaseAmountField } from "./purchase-amount-field.tsx";

/**
 * The counter tablet's amount entry (ADR 0054): staff type the PIN and the amount; the tablet shows a single-use QR
 * code for that amount, which the customer scans with their phone, until it is claimed or its five minutes end.
 */

/** A full-screen layer above the tablet's screen, named by its heading; Escape closes it. */
function Layer({
  labelledBy,
  onClose,
  children,
}: {
  labelledBy: string;
  onClose: () => void;
  children: React.ReactNode;
}) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby={labelledBy}
      className="fixed inset-0 z-50 flex items-center justify-center overflow-y-auto bg-stone-950/80 p-4"
    >
      <div className="w-full max-w-xl rounded-3xl bg-white p-6 text-stone-900 shadow-2xl sm:p-8">{children}</div>
    </div>
  );
}

/** PIN and amount; on success, hands the code to the screen. */
export function AmountEntry({
  rule,
  onCode,
  onClose,
}: {
  rule: string;
  onCode: (code: AmountCode) => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const create = useCreateAmountCode();
  const form = useForm(tabletAmountFormSchema, async (values) => {
    onCode(await create.mutateAsync(values));
  });
  return (
    <Layer labelledBy={titleId} onClose={onClose}>
      <h2 id={titleId} className="text-3xl font-black tracking-tight">
        Saisir un montant
      </h2>
      <p className="mt-2 text-base text-stone-700">
        La carte donne {rule}. Le client scanne ensuite le QR code avec son téléphone.
      </p>
      <Form form={form} className="mt-6 flex flex-col gap-5">
        <Field
          label="Code PIN de l'équipe"
          name="pin"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={8}
          autoFocus
          className="[&_input]:min-h-14 [&_input]:text-2xl [&_input]:tracking-[0.3em]"
          error={form.fieldErrors.pin}
        />
        <PurchaseAmountField className="[&_input]:min-h-14 [&_input]:text-2xl" error={form.fieldErrors.amountCents} />
        <div className="flex flex-col gap-3 sm:flex-row-reverse">
          <Button type="submit" isLoading={form.isSubmitting} className="min-h-14 flex-1 text-xl!">
            Afficher le QR code
          </Button>
          <Button variant="secondary" className="min-h-14 text-xl!" onClick={onClose}>
            Annuler
          </Button>
        </div>
      </Form>
    </Layer>
  );
}

/** « 4:32 » left before `endsAt`. */
function useSecondsLeft(endsAt: string) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1_000);
    return () => window.clearInterval(timer);
  }, []);
  return Math.max(0, Math.ceil((Date.parse(endsAt) - now) / 1000));
}

/** How long the screen thanks the customer before going back to the counter's code. */
const THANKS_MS = 6_000;

/** The amount's QR code, big and on white, until claimed (then a thank-you) or expired. */
export function AmountCodeView({ code, onClose }: { code: AmountCode; onClose: () => void }) {
  const titleId = useId();
  const status = useAmountCodeStatus(code.receiptId);
  const left = useSecondsLeft(code.expiresAt);
  const claimed = status.data?.claimed ? status.data : null;
  useEffect(() => {
    if (claimed) {
      const timer = window.setTimeout(onClose, THANKS_MS);
      return () => window.clearTimeout(timer);
    }
    if (left === 0) onClose();
    return undefined;
  }, [claimed, left, onClose]);
  return (
    <Layer labelledBy={titleId} onClose={onClose}>
      <h2 id={titleId} className="text-center text-4xl font-black tracking-tight tabular-nums">
        {formatCents(code.amountCents)}
        <span className="mt-1 block text-2xl font-bold text-brand-800">
          {formatAmount("points", code.points)} à gagner
        </span>
      </h2>
      {claimed ? (
        <div role="status" className="mt-8 flex flex-col items-center gap-3 text-center">
          <span
            className="flex size-24 items-center justify-center rounded-full bg-emerald-600 text-6xl text-white"
            aria-hidden="true"
          >
            ✓
          </span>
          <p className="text-3xl font-black">Merci {claimed.customer} !</p>
          <p className="text-xl">{formatAmount("points", claimed.delta)} ajoutés à la carte.</p>
        </div>
      ) : (
        <>
          <div className="mx-auto mt-6 aspect-square w-[min(80vw,52vh)] rounded-2xl border border-stone-200 p-2">
            <QrImage
              text={code.url}
              label={`QR code de ${formatCents(code.amountCents)} à scanner avec votre téléphone`}
            />
          </div>
          <p className="mt-5 text-center text-xl font-semibold">
            Scannez ce QR code avec l'appareil photo de votre téléphone pour recevoir vos points.
          </p>
          <p className="mt-2 text-center text-base text-stone-700" role="timer" aria-live="off">
            Valable encore {Math.floor(left / 60)}:{String(left % 60).padStart(2, "0")} · une seule fois
          </p>
        </>
      )}
      <Button variant="secondary" full className="mt-6 min-h-14 text-xl!" onClick={onClose}>
        {claimed ? "Fermer" : "Terminé"}
      </Button>
    </Layer>
  );
}
