import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { z } from "zod";
import { parsePersonalCode } from "../../../../domain/loyalty/personal-code.ts";
import { emailSchema } from "../../../../domain/schemas/accounts.ts";
import { adjustmentOutcomeFr } from "../../../../domain/loyalty/adjustments.ts";
import { adjustmentSchema, creditVisitFormSchema } from "../../../../domain/schemas/cards.ts";
import { Glyph } from "../../../components/loyalty/glyph.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { EmailField, Field, NumberField } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { useForm } from "../../../lib/use-form.ts";
import { randomKey } from "../../../lib/random-key.ts";
import { PrepaidSale } from "../../../components/prepaid/prepaid-sale.tsx";
import { Section } from "../../../components/ui/section.tsx";
import {
  adjustCard,
  type CounterCustomer,
  creditVisit,
  lookupCustomer,
  type TodayScan,
  todayScansQueryOptions,
} from "../api/counter.ts";
import { useCounterShop } from "../components/counter-shop.tsx";
import { formatClock, formatMoment, formatSigned } from "../../../../domain/format.ts";
import { creditedTodayFr } from "../../../../domain/phrases.ts";
import { cardsKeys } from "../api/keys.ts";
import { useMutationFn } from "../../../lib/use-mutation-fn.ts";
import { Form } from "../../../components/ui/form.tsx";
import { PurchaseAmountField } from "../components/purchase-amount-field.tsx";

const emailFormSchema = z.object({ email: emailSchema });
const correctionSchema = adjustmentSchema.pick({ delta: true, reason: true });

const fullName = (c: { firstName: string | null; lastName: string | null; email?: string | null }) =>
  [c.firstName, c.lastName].filter(Boolean).join(" ") || c.email || "Client";

/**
 * A key per attempt: made at the first submit, kept through retries after a network failure, dropped once the
 * server has answered (so one tap never counts twice, and the next visit gets a new key).
 */
function useAttemptKey() {
  const key = useRef<string | null>(null);
  return {
    current: () => {
      key.current ??= randomKey();
      return key.current;
    },
    done: () => {
      key.current = null;
    },
  };
}

function CreditVisit({
  shopId,
  presetCode,
  onDone,
}: {
  shopId: string;
  presetCode: string | null;
  onDone: () => void;
}) {
  const credit = useMutationFn(creditVisit);
  const attempt = useAttemptKey();
  const [result, setResult] = useState<{ accepted: boolean; text: string } | null>(null);
  const form = useForm(creditVisitFormSchema, async ({ code, email, amountCents }) => {
    setResult(null);
    try {
      const answer = await credit(shopId, {
        code: code ?? undefined,
        email: email ?? undefined,
        amountCents: amountCents ?? undefined,
        idempotencyKey: attempt.current(),
      });
      attempt.done();
      setResult({
        accepted: answer.accepted,
        text: `${answer.accepted ? "Crédité" : "Non crédité"} · ${fullName(answer.customer)} : ${answer.message}`,
      });
      onDone();
    } catch (error) {
      // A refusal by the server (unknown e-mail, own card) is final; a network failure keeps the key for the retry.
      if (error instanceof ApiError && error.status !== 0) attempt.done();
      throw error;
    }
  });
  return (
    <Section
      title="Créditer un passage"
      lead="Pour un client sans appareil photo : son code client (dans l'app : Mes cartes › Ma carte client), ou l'e-mail d'un client déjà inscrit chez vous. Les mêmes règles s'appliquent (délai entre deux passages, limite du jour)."
    >
      <Form key={presetCode ?? "credit"} form={form} className="flex flex-col gap-3" submit="Créditer le passage">
        {result ? <Notice tone={result.accepted ? "success" : "info"}>{result.text}</Notice> : null}
        <Field
          label="Code client"
          name="code"
          autoComplete="off"
          autoCapitalize="characters"
          placeholder="ABCD-EF23"
          defaultValue={presetCode ?? ""}
          hint="Scannez-le avec « Valider une récompense », ou tapez les 8 caractères."
          error={form.fieldErrors.code}
        />
        <EmailField label="Ou e-mail d'un client de la boutique" autoComplete="off" error={form.fieldErrors.email} />
        <PurchaseAmountField
          hint="Pour une carte qui donne des points selon le montant."
          error={form.fieldErrors.amountCents}
        />
      </Form>
    </Section>
  );
}

function Correction({
  shopId,
  preset,
  onDone,
}: {
  shopId: string;
  preset: { email: string; nonce: number } | null;
  onDone: () => void;
}) {
  const adjust = useMutationFn(adjustCard);
  const attempt = useAttemptKey();
  const [customer, setCustomer] = useState<CounterCustomer | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const lookupForm = useForm(emailFormSchema, async ({ email }) => {
    setSaved(null);
    setCustomer(null);
    setCustomer(await lookupCustomer(shopId, email));
  });
  const correctionForm = useForm(correctionSchema, async ({ delta, reason }) => {
    if (!customer) return;
    try {
      const result = await adjust(shopId, {
        cardId: customer.cardId,
        delta,
        reason,
        idempotencyKey: attempt.current(),
      });
      attempt.done();
      setCustomer({ ...customer, balance: result.card.balance });
      setSaved(
        result.status === "pending"
          ? `${adjustmentOutcomeFr(result.status, delta)} Client : ${fullName(customer)}.`
          : `Correction enregistrée (${formatSigned(delta)}) pour ${fullName(customer)}. Nouveau solde : ${result.card.balance}.`,
      );
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.status !== 0) attempt.done();
      throw error;
    }
  });

  // "Corriger" on a row of today's list looks the customer up at once.
  const { setFormError } = lookupForm;
  useEffect(() => {
    if (!preset) return;
    setSaved(null);
    setCustomer(null);
    setFormError(null);
    lookupCustomer(shopId, preset.email)
      .then(setCustomer)
      .catch((e: Error) => setFormError(e.message));
  }, [preset, shopId, setFormError]);

  return (
    <Section
      title="Corriger une erreur"
      lead="Un passage crédité deux fois, un tampon oublié : la correction et son motif restent dans l'historique du client."
    >
      <Form key={preset?.nonce ?? "lookup"} form={lookupForm} className="flex flex-col gap-3">
        <EmailField
          label="E-mail du client à corriger"
          autoComplete="off"
          defaultValue={preset?.email ?? ""}
          error={lookupForm.fieldErrors.email}
        />
        <Button type="submit" variant="secondary" full isLoading={lookupForm.isSubmitting}>
          Rechercher la carte
        </Button>
      </Form>
      {customer ? (
        <form
          onSubmit={correctionForm.handleSubmit}
          noValidate
          className="mt-5 flex flex-col gap-3 border-t border-stone-200 pt-5 dark:border-stone-800"
        >
          <div className="rounded-xl bg-stone-50 p-4 dark:bg-stone-950">
            <p className="font-semibold">{fullName(customer)}</p>
            <p className="text-sm text-stone-700 dark:text-stone-300">
              Solde : <strong>{customer.balance}</strong> · {customer.visits} passage{customer.visits > 1 ? "s" : ""}
              {customer.lastVisitAt ? ` · dernier ${formatMoment(customer.lastVisitAt)}` : ""}
            </p>
          </div>
          {saved ? <Notice tone="success">{saved}</Notice> : null}
          {correctionForm.formError ? <Notice tone="error">{correctionForm.formError}</Notice> : null}
          <NumberField
            label="À ajouter ou retirer"
            name="delta"
            step={1}
            hint="Par exemple -1 pour retirer un tampon crédité par erreur, 2 pour en ajouter deux."
            error={correctionForm.fieldErrors.delta}
          />
          <Field
            label="Motif"
            name="reason"
            maxLength={200}
            placeholder="Passage crédité deux fois"
            error={correctionForm.fieldErrors.reason}
          />
          <Button type="submit" full isLoading={correctionForm.isSubmitting}>
            Enregistrer la correction
          </Button>
        </form>
      ) : null}
    </Section>
  );
}

const OUTCOME_TONE: Record<string, string> = {
  accepted: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  cooldown: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
  daily_cap: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
};

function TodayRow({ scan, onCorrect }: { scan: TodayScan; onCorrect: (email: string) => void }) {
  const { customer } = scan;
  return (
    <li className="flex items-start gap-3 py-3">
      <span className="w-16 shrink-0 whitespace-nowrap pt-0.5 text-sm font-semibold tabular-nums text-stone-700 dark:text-stone-300">
        {formatClock(new Date(scan.createdAt))}
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate font-semibold">{fullName(customer)}</p>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          {scan.methodLabel}
          {scan.delta > 0 ? ` · +${scan.delta}` : ""}
          {scan.multiplier > 1 ? ` (×${scan.multiplier})` : ""}
        </p>
        {scan.isFlagged ? (
          <p className="mt-1 flex items-center gap-1 text-sm font-medium text-red-800 dark:text-red-300">
            <Glyph name="alert" className="size-4" />
            {scan.flagLabels.join(" · ")}
          </p>
        ) : null}
      </div>
      <div className="flex shrink-0 flex-col items-end gap-1">
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${OUTCOME_TONE[scan.outcome] ?? "bg-stone-100 text-stone-800 dark:bg-stone-800 dark:text-stone-200"}`}
        >
          {scan.outcomeLabel}
        </span>
        {customer.email && customer.cardId ? (
          <button
            type="button"
            onClick={() => onCorrect(customer.email as string)}
            className="min-h-9 rounded-lg px-2 text-sm font-semibold text-brand-800 hover:bg-brand-50 dark:text-brand-200 dark:hover:bg-stone-800"
          >
            Corriger
          </button>
        ) : null}
      </div>
    </li>
  );
}

/** /manager (staff): today's scans, a visit credited by e-mail, a correction with its reason. */
export default function ManagerPage() {
  const counter = useCounterShop();
  const { shopId } = counter;
  const queryClient = useQueryClient();
  const today = useQuery({ ...todayScansQueryOptions(shopId ?? ""), enabled: Boolean(shopId) });
  const [preset, setPreset] = useState<{ email: string; nonce: number } | null>(null);
  // A personal code scanned on /validate-reward arrives as ?client=…
  const presetCode = parsePersonalCode(new URLSearchParams(useLocation().search).get("client") ?? "");
  const refresh = () => void queryClient.invalidateQueries({ queryKey: cardsKeys.counterToday(shopId) });

  if (!shopId) {
    return (
      <div className="mx-auto max-w-md px-5 pt-8">
        <h1 className="text-2xl font-bold">Comptoir</h1>
        <p className="mt-2 text-stone-700 dark:text-stone-300">Aucune boutique n'est liée à votre compte.</p>
      </div>
    );
  }
  const scans = today.data?.scans ?? [];
  const credited = scans.filter((s) => s.outcome === "accepted").length;

  return (
    <div className="mx-auto flex max-w-md flex-col gap-5 px-5 pb-10 pt-6 md:max-w-3xl">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Comptoir</h1>
        {counter.shopName ? <p className="mt-1 text-stone-700 dark:text-stone-300">{counter.shopName}</p> : null}
      </div>
      <Link
        to={`/reader?boutique=${encodeURIComponent(shopId)}`}
        className="flex items-center gap-4 rounded-2xl bg-brand-700 p-5 text-white shadow-sm hover:bg-brand-800"
      >
        <Glyph name="qr" className="size-10 shrink-0" />
        <span className="flex-1">
          <span className="block text-lg font-bold">Afficher le code du comptoir</span>
          <span className="block text-sm text-brand-50">Le QR code à scanner, renouvelé toutes les 30 secondes.</span>
        </span>
        <Glyph name="chevron" />
      </Link>

      <div className="grid gap-5 md:grid-cols-2">
        <CreditVisit shopId={shopId} presetCode={presetCode} onDone={refresh} />
        <Correction shopId={shopId} preset={preset} onDone={refresh} />
      </div>
      <PrepaidSale shopId={shopId} />

      <Section title="Passages du jour" lead={scans.length > 0 ? creditedTodayFr(credited, scans.length) : undefined}>
        {today.isError ? <Notice tone="error">{today.error.message}</Notice> : null}
        {today.isPending ? (
          <p className="text-sm text-stone-600 dark:text-stone-400">Chargement…</p>
        ) : scans.length === 0 ? (
          <p className="text-stone-700 dark:text-stone-300">Aucun passage pour l'instant aujourd'hui.</p>
        ) : (
          <ul className="divide-y divide-stone-100 dark:divide-stone-800">
            {scans.map((scan) => (
              <TodayRow key={scan.id} scan={scan} onCorrect={(email) => setPreset({ email, nonce: Date.now() })} />
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}
