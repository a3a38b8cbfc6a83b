import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { CurrentPasswordField } from "../components/password-fields.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { Section } from "../../../components/ui/section.tsx";
import { authClient } from "../../../lib/auth-client.ts";
import { type Me, meQueryOptions, useMe } from "../../../lib/me.ts";
import { useForm } from "../../../lib/use-form.ts";
import { type DeviceSession, sessionsQueryOptions, useSessions } from "../api/get-sessions.ts";
import { Glyph } from "../../../components/loyalty/glyph.tsx";
import { CopyButton } from "../components/copy-button.tsx";
import { describeDevice } from "../../../lib/describe-device.ts";
import { RecoveryCodes } from "../components/recovery-codes.tsx";
import { secretOf, TotpQrCode } from "../components/totp-qr-code.tsx";
import { TwoFactorNudge } from "../components/two-factor-nudge.tsx";
import { formatDate, formatDayMonth, formatTimeOfDay } from "../../../../domain/format.ts";
import { Form } from "../../../components/ui/form.tsx";

const passwordSchema = z.object({ password: z.string().min(1, "Saisissez votre mot de passe.") });
const totpCodeSchema = z.object({
  code: z
    .string()
    .transform((v) => v.replace(/\s/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, "Saisissez le code à 6 chiffres affiché par l'application.")),
});

/** /protected: the account's security — two-factor and the devices signed in. */
export default function SecurityPage() {
  const { data: me } = useMe();
  if (!me) return null;
  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-5 px-5 pb-8 pt-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Sécurité du compte</h1>
        <p className="mt-2 text-stone-600 dark:text-stone-400">
          Protégez l'accès à vos cartes et gardez un œil sur les appareils connectés.
        </p>
      </div>
      <TwoFactorNudge me={me} withLink={false} />
      <TwoFactorSection me={me} />
      <SessionsSection />
    </div>
  );
}

type TwoFactorPhase =
  | { kind: "idle" }
  | { kind: "password" }
  | { kind: "scan"; totpURI: string; backupCodes: string[] }
  | { kind: "codes"; backupCodes: string[] }
  | { kind: "disable" };

function TwoFactorSection({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<TwoFactorPhase>({ kind: "idle" });
  const [notice, setNotice] = useState<string | null>(null);
  // Turning two-factor on or off replaces this device's session: refresh both.
  const refreshMe = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
    ]);

  const enableForm = useForm(passwordSchema, async ({ password }) => {
    const { totpURI, backupCodes } = await authClient.enableTwoFactor(password);
    setPhase({ kind: "scan", totpURI, backupCodes });
  });
  const verifyForm = useForm(totpCodeSchema, async ({ code }) => {
    if (phase.kind !== "scan") return;
    await authClient.verifyTotp(code);
    // The codes come from the enable step; they are shown only now that the app is proven to work.
    setPhase({ kind: "codes", backupCodes: phase.backupCodes });
    await refreshMe();
  });
  const disableForm = useForm(passwordSchema, async ({ password }) => {
    await authClient.disableTwoFactor(password);
    setPhase({ kind: "idle" });
    setNotice("La double authentification est désactivée.");
    await refreshMe();
  });

  const isOn = me.user.twoFactorEnabled;
  const badge = (
    <span
      className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${
        isOn
          ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
          : "bg-stone-100 text-stone-700 dark:bg-stone-800 dark:text-stone-300"
      }`}
    >
      {isOn ? "Activée" : "Désactivée"}
    </span>
  );

  if (phase.kind === "codes") {
    return (
      <Section title="Double authentification" icon={<Glyph name="shield" className="size-5" />} badge={badge} stack>
        <Notice tone="success">
          C'est fait : à chaque connexion, Fidèle vous demandera un code de votre application.
        </Notice>
        <RecoveryCodes
          codes={phase.backupCodes}
          onDone={() => {
            setPhase({ kind: "idle" });
            setNotice(null);
          }}
        />
      </Section>
    );
  }

  if (phase.kind === "scan") {
    const secret = secretOf(phase.totpURI);
    return (
      <Section title="Double authentification" icon={<Glyph name="shield" className="size-5" />} badge={badge} stack>
        <ol className="flex list-decimal flex-col gap-2 pl-5 text-stone-800 dark:text-stone-200">
          <li>Ouvrez votre application d'authentification (Google Authenticator, Microsoft Authenticator, 2FAS…).</li>
          <li>Scannez ce QR code, ou saisissez la clé ci-dessous.</li>
          <li>Entrez le code à 6 chiffres qu'elle affiche.</li>
        </ol>
        <TotpQrCode uri={phase.totpURI} />
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium text-stone-700 dark:text-stone-300">Clé de configuration</p>
          <p
            data-testid="totp-secret"
            data-secret={secret}
            className="select-all rounded-xl bg-stone-100 px-4 py-3 text-center font-mono text-base leading-relaxed tracking-wider dark:bg-stone-800"
          >
            {secret.match(/.{1,4}/g)?.join(" ")}
          </p>
          <CopyButton text={secret} label="Copier la clé" variant="ghost" />
        </div>
        <Form form={verifyForm}>
          <Field
            label="Code à 6 chiffres"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            error={verifyForm.fieldErrors.code}
          />
          <Button type="submit" full isLoading={verifyForm.isSubmitting}>
            Confirmer et activer
          </Button>
          <Button variant="ghost" full onClick={() => setPhase({ kind: "idle" })}>
            Annuler
          </Button>
        </Form>
      </Section>
    );
  }

  if (isOn) {
    return (
      <Section title="Double authentification" icon={<Glyph name="shield" className="size-5" />} badge={badge} stack>
        {notice ? <Notice tone="success">{notice}</Notice> : null}
        <p className="text-stone-700 dark:text-stone-300">
          À chaque connexion, un code de votre application d'authentification vous est demandé. Sans votre téléphone,
          utilisez un de vos codes de secours.
        </p>
        {phase.kind === "disable" ? (
          <Form form={disableForm}>
            <CurrentPasswordField error={disableForm.fieldErrors.password} />
            <Button type="submit" variant="danger" full isLoading={disableForm.isSubmitting}>
              Désactiver la double authentification
            </Button>
            <Button variant="ghost" full onClick={() => setPhase({ kind: "idle" })}>
              Annuler
            </Button>
          </Form>
        ) : (
          <Button variant="secondary" full onClick={() => setPhase({ kind: "disable" })}>
            Désactiver…
          </Button>
        )}
      </Section>
    );
  }

  return (
    <Section title="Double authentification" icon={<Glyph name="shield" className="size-5" />} badge={badge} stack>
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      <p className="text-stone-700 dark:text-stone-300">
        En plus de votre mot de passe, un code à 6 chiffres généré par une application de votre téléphone vous sera
        demandé à chaque connexion.
      </p>
      {phase.kind === "password" ? (
        <Form form={enableForm}>
          <CurrentPasswordField
            hint="Par sécurité, confirmez votre mot de passe."
            error={enableForm.fieldErrors.password}
          />
          <Button type="submit" full isLoading={enableForm.isSubmitting}>
            Continuer
          </Button>
          <Button variant="ghost" full onClick={() => setPhase({ kind: "idle" })}>
            Annuler
          </Button>
        </Form>
      ) : (
        <Button full onClick={() => setPhase({ kind: "password" })}>
          Activer
        </Button>
      )}
    </Section>
  );
}

/** "21 novembre à 18:37" */
const atTime = (iso: string) => `${formatDayMonth(iso)} à ${formatTimeOfDay(iso)}`;

function SessionsSection() {
  const queryClient = useQueryClient();
  const sessions = useSessions();
  const others = sessions.data?.filter((s) => !s.isCurrent).length ?? 0;
  const revokeOthers = useMutation({
    mutationFn: () => authClient.revokeOtherSessions(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });

  return (
    <Section title="Appareils connectés" icon={<Glyph name="device" className="size-5" />} stack>
      {revokeOthers.isSuccess ? <Notice tone="success">Vos autres appareils ont été déconnectés.</Notice> : null}
      {revokeOthers.isError ? (
        <Notice tone="error">{errorText(revokeOthers.error, "La déconnexion des autres appareils a échoué.")}</Notice>
      ) : null}
      {sessions.isPending ? (
        <p className="text-stone-600 dark:text-stone-400" aria-busy="true">
          Chargement des appareils…
        </p>
      ) : sessions.isError ? (
        <Notice tone="error">{errorText(sessions.error, "Impossible de charger vos appareils.")}</Notice>
      ) : (
        <ul className="flex flex-col divide-y divide-stone-200 dark:divide-stone-800" aria-label="Sessions ouvertes">
          {sessions.data.map((s) => (
            <SessionRow key={s.id} session={s} />
          ))}
        </ul>
      )}
      {others > 0 ? (
        <Button variant="secondary" full isLoading={revokeOthers.isPending} onClick={() => revokeOthers.mutate()}>
          {others === 1 ? "Déconnecter l'autre appareil" : `Déconnecter les ${others} autres appareils`}
        </Button>
      ) : sessions.isSuccess ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Aucun autre appareil n'est connecté à votre compte.
        </p>
      ) : null}
    </Section>
  );
}

function SessionRow({ session }: { session: DeviceSession }) {
  return (
    <li className="flex flex-col gap-0.5 py-3 first:pt-0 last:pb-0" data-testid="session-row">
      <div className="flex items-center justify-between gap-3">
        <p className="font-medium">{describeDevice(session.userAgent)}</p>
        {session.isCurrent ? (
          <span className="shrink-0 rounded-full bg-brand-100 px-2.5 py-0.5 text-xs font-semibold text-brand-900">
            Cet appareil
          </span>
        ) : null}
      </div>
      <p className="text-sm text-stone-600 dark:text-stone-400">Actif le {atTime(session.updatedAt)}</p>
      <p className="text-sm text-stone-600 dark:text-stone-400">Connecté depuis le {formatDate(session.createdAt)}</p>
    </li>
  );
}
