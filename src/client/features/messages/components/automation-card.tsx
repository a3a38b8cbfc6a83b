import { type FormEvent, useState } from "react";
import {
  type CardMode,
  capitalize,
  formatNumber,
  formatPercent,
  formatSigned,
  plural,
  pluralWord,
  unitWord,
} from "../../../../domain/format.ts";
import {
  AUTOMATION_INFO,
  type AutomationSettings,
  automationBody,
  NO_HOLDOUT_WARNING_FR,
  RETURN_WINDOW_DAYS,
} from "../../../../domain/messages/automations.ts";
import { DEFAULT_OFFER_DAYS, type OfferKind, offerLineFr } from "../../../../domain/messages/offers.ts";
import { applyMergeFields, MERGE_HINT_FR } from "../../../../domain/messages/newsletter-blocks.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Checkbox, Field, NumberField } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { SavedStatus } from "../../../components/ui/saved-status.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { TextareaField } from "../../../components/ui/textarea-field.tsx";
import { errorFields } from "../../../lib/api-client.ts";
import { type Automation, useSaveAutomation } from "../api/automations.ts";
import { PhonePreview } from "./phone-preview.tsx";

type Results = Automation["results"];

/** « +12 passages » or « — » when it cannot be known (no holdout yet). */
const broughtFr = (n: number | null, one: string, many: string) =>
  n === null ? "—" : `${formatSigned(n)} ${pluralWord(n, one, many)}`;

/** What the automation did over the period, against the holdout, in plain words. */
function ResultsPanel({ results, label, mode }: { results: Results; label: string; mode: CardMode }) {
  const { sent, holdout, comparison } = results;
  if (sent.people + holdout.people === 0) {
    return (
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Pas encore de résultat sur {results.period} jours : les chiffres apparaîtront après les premiers envois.
      </p>
    );
  }
  const rate = (r: number | null) => (r === null ? "—" : formatPercent(r));
  return (
    <div className="flex flex-col gap-3" data-testid="automation-results">
      <p className="text-lg font-bold" data-testid="automation-verdict">
        {results.verdict}
      </p>
      <p className="text-sm text-stone-700 dark:text-stone-300">{results.detail}</p>
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <div className="rounded-xl bg-brand-50 p-3 dark:bg-stone-800">
          <dt className="font-medium">Avec le message</dt>
          <dd className="text-2xl font-bold tabular-nums" data-testid="sent-rate">
            {rate(comparison.sentRate)}
          </dd>
          <dd data-testid="sent-returned">
            {formatNumber(sent.returned)} sur {formatNumber(sent.people)} revenus
          </dd>
        </div>
        <div className="rounded-xl bg-stone-100 p-3 dark:bg-stone-800">
          <dt className="font-medium">Groupe témoin</dt>
          <dd className="text-2xl font-bold tabular-nums">{rate(comparison.holdoutRate)}</dd>
          <dd>
            {formatNumber(holdout.returned)} sur {formatNumber(holdout.people)} revenus sans message
          </dd>
        </div>
      </dl>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        Revenus : une visite créditée dans les {RETURN_WINDOW_DAYS} jours. Grâce au message :{" "}
        {broughtFr(results.brought.visits, "passage", "passages")},{" "}
        {broughtFr(results.brought.points, unitWord(mode, 1), unitWord(mode, 2))},{" "}
        {broughtFr(results.brought.rewards, "récompense", "récompenses")}. {formatNumber(sent.reached)} sur{" "}
        {formatNumber(sent.people)} l'ont bien reçu
        {sent.reached < sent.people
          ? " (les autres avaient déjà reçu assez de messages de votre boutique ce jour-là, ou ont retiré leur accord)"
          : ""}
        .
      </p>
      <p className="sr-only">Résultats de « {label} ».</p>
    </div>
  );
}

/** The settings form: channels, days, text with a phone preview, the holdout. */
function SettingsForm({
  shopId,
  shopName,
  automation,
  birthdayGift,
  suggestion,
}: {
  shopId: string;
  shopName: string;
  automation: Automation;
  birthdayGift: string | null;
  suggestion: string | null;
}) {
  const info = AUTOMATION_INFO[automation.kind];
  const save = useSaveAutomation(shopId);
  const [push, setPush] = useState(automation.push);
  const [email, setEmail] = useState(automation.email);
  const [sms, setSms] = useState(automation.sms);
  const [days, setDays] = useState(String(automation.days ?? ""));
  const [title, setTitle] = useState(automation.title);
  const [body, setBody] = useState(automation.body);
  const [holdout, setHoldout] = useState(String(automation.holdoutPercent));
  const [confirmed, setConfirmed] = useState(false);
  const [offerKind, setOfferKind] = useState<OfferKind | "">(automation.offer?.kind ?? "");
  const [offerReward, setOfferReward] = useState(automation.offer?.rewardId ?? automation.preview.rewards[0]?.id ?? "");
  const [offerDays, setOfferDays] = useState(String(automation.offer?.days ?? DEFAULT_OFFER_DAYS));
  const fields = errorFields(save.error);
  const noHoldout = Number(holdout) === 0;
  const offer = offerKind
    ? { kind: offerKind, rewardId: offerKind === "reward" ? offerReward || null : null, days: Number(offerDays) }
    : null;
  // The preview: the example customer's values in the merge fields, the offer's line as it will read.
  const { values, mode, rewards } = automation.preview;
  const offerLine = offer
    ? offerLineFr({ ...offer, rewardTitle: rewards.find((r) => r.id === offer.rewardId)?.title ?? null }, mode, null)
    : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const settings: AutomationSettings = {
      enabled: automation.enabled,
      push,
      email,
      sms,
      days: info.hasDays ? Number(days) : null,
      title,
      body,
      holdoutPercent: Number(holdout),
      noHoldoutConfirmed: confirmed,
      offer,
    };
    save.mutate({ kind: automation.kind, settings });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="grid grid-cols-1 gap-5 md:grid-cols-[minmax(0,1fr)_auto] [&>*]:min-w-0"
    >
      <div className="flex flex-col gap-4">
        {info.hasDays ? (
          <NumberField
            label={automation.kind === "win_back" ? "Après combien de jours sans visite ?" : "Après combien de jours ?"}
            min={3}
            max={365}
            value={days}
            onValue={setDays}
            error={fields.days}
            hint={suggestion ?? undefined}
          />
        ) : null}
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 text-sm font-medium">Canaux, pour les clients qui les acceptent</legend>
          <p className="text-sm text-stone-600 dark:text-stone-400">Toujours dans l'application.</p>
          <Checkbox label="Notification push" checked={push} onChange={(e) => setPush(e.target.checked)} />
          <Checkbox label="E-mail" checked={email} onChange={(e) => setEmail(e.target.checked)} />
          <Checkbox label="SMS (dans votre budget SMS)" checked={sms} onChange={(e) => setSms(e.target.checked)} />
        </fieldset>
        <Field label="Titre" value={title} maxLength={80} onValue={setTitle} error={fields.title} required />
        <TextareaField
          label="Texte"
          value={body}
          maxLength={500}
          onValue={setBody}
          error={fields.body}
          hint={`Personnalisez le titre et le texte avec : ${MERGE_HINT_FR}.`}
          required
        />
        <SelectField
          label="Offre jointe (facultative)"
          value={offerKind}
          onChange={(e) => setOfferKind(e.target.value as OfferKind | "")}
          error={fields["offer.kind"]}
          hint="Chaque client qui reçoit le message en profite une fois, pour lui seul ; jamais le groupe témoin ni votre équipe."
        >
          <option value="">Aucune offre</option>
          <option value="double_points">{capitalize(unitWord(mode, 2))} doublés</option>
          <option value="reward" disabled={rewards.length === 0}>
            Une récompense offerte
          </option>
        </SelectField>
        {offerKind === "reward" ? (
          <SelectField
            label="Récompense offerte"
            value={offerReward}
            onValue={setOfferReward}
            error={fields["offer.rewardId"]}
            options={rewards.map((r) => ({ value: r.id, label: r.title }))}
          />
        ) : null}
        {offerKind ? (
          <NumberField
            label="Valable combien de jours ?"
            min={1}
            max={30}
            value={offerDays}
            onValue={setOfferDays}
            error={fields["offer.days"]}
          />
        ) : null}
        <NumberField
          label="Groupe témoin (%)"
          min={0}
          max={50}
          value={holdout}
          onValue={setHoldout}
          error={fields.holdoutPercent}
          hint="Une part des clients concernés, tirée au hasard, ne reçoit rien : c'est en les comparant qu'on sait si le message fait revenir."
        />
        {noHoldout ? (
          <div className="flex flex-col gap-2 rounded-xl border border-amber-300 bg-amber-50 p-3 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
            <p className="text-sm">{NO_HOLDOUT_WARNING_FR}</p>
            <Checkbox
              label="J'ai compris, je ne veux pas de groupe témoin"
              checked={confirmed}
              onChange={(e) => setConfirmed(e.target.checked)}
            />
          </div>
        ) : null}
        {save.error && !Object.keys(fields).length ? <Notice tone="error">{save.error.message}</Notice> : null}
        <Button type="submit" isLoading={save.isPending}>
          Enregistrer le message
        </Button>
        <SavedStatus savedAt={save.isSuccess ? save.submittedAt : null} />
      </div>
      <div className="md:self-start">
        <PhonePreview
          sender={shopName}
          title={applyMergeFields(title, values)}
          body={applyMergeFields(
            automationBody(automation.kind, body, { gift: birthdayGift, offer: offerLine }),
            values,
          )}
          imageUrl=""
          withPush={push}
        />
        <p className="mx-auto mt-2 max-w-64 text-center text-sm text-stone-600 dark:text-stone-400">
          Exemple avec {values.prenom}, {values.points} {unitWord(mode, 2)} sur sa carte.
        </p>
      </div>
    </form>
  );
}

/** One automation: on or off in one tap, what it will send this week, its results, and its message to adjust. */
export function AutomationCard({
  shopId,
  shopName,
  mode,
  automation,
  birthdayGift,
  suggestion,
}: {
  shopId: string;
  shopName: string;
  mode: CardMode;
  automation: Automation;
  birthdayGift: string | null;
  suggestion: string | null;
}) {
  const info = AUTOMATION_INFO[automation.kind];
  const toggle = useSaveAutomation(shopId);
  // What the owner just asked, held in the component's own state: it is set in the same event as the tap, so the box
  // stays as tapped while it saves (the mutation's own pending state reaches React a task later, and a controlled
  // box flips back in between), then shows what the server says.
  const [asked, setAsked] = useState<boolean | null>(null);
  const setEnabled = (enabled: boolean) => {
    setAsked(enabled);
    toggle.mutate(
      {
        kind: automation.kind,
        settings: {
          enabled,
          push: automation.push,
          email: automation.email,
          sms: automation.sms,
          days: automation.days,
          title: automation.title,
          body: automation.body,
          holdoutPercent: automation.holdoutPercent,
          noHoldoutConfirmed: automation.holdoutPercent === 0,
        },
      },
      { onSettled: () => setAsked(null) },
    );
  };
  const enabled = asked ?? automation.enabled;
  const id = `automatisation-${automation.kind.replace("_", "-")}`;
  return (
    <Section
      id={id}
      title={info.label}
      lead={info.when}
      badge={
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-semibold ${automation.enabled ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-50" : "bg-stone-100 text-stone-700 dark:bg-stone-800 dark:text-stone-300"}`}
        >
          {automation.enabled ? "Activée" : "Désactivée"}
        </span>
      }
      stack
    >
      <Checkbox
        label={`Envoyer « ${info.label} » automatiquement`}
        checked={enabled}
        onChange={(e) => setEnabled(e.target.checked)}
      />
      {toggle.error ? <Notice tone="error">{toggle.error.message}</Notice> : null}
      <p className="text-sm text-stone-700 dark:text-stone-300" data-testid="expected-sends">
        {automation.enabled ? "Prévu" : "Si vous l'activez"} : environ{" "}
        {plural(automation.expectedNextWeek, "envoi", "envois")} dans les 7 prochains jours
        {automation.holdoutPercent > 0 ? ` (hors groupe témoin de ${automation.holdoutPercent} %)` : ""}.
      </p>
      <ResultsPanel results={automation.results} label={info.label} mode={mode} />
      <details className="rounded-xl border border-stone-200 dark:border-stone-800">
        <summary className="min-h-12 cursor-pointer px-4 py-3 font-semibold">Régler le message</summary>
        <div className="border-t border-stone-200 p-4 dark:border-stone-800">
          <SettingsForm
            shopId={shopId}
            shopName={shopName}
            automation={automation}
            birthdayGift={birthdayGift}
            suggestion={suggestion}
          />
        </div>
      </details>
    </Section>
  );
}
