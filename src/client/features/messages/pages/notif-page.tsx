import { useMutation, useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Card, Page } from "../../../components/ui/page.tsx";
import { SavedStatus } from "../../../components/ui/saved-status.tsx";
import { type Preferences, preferencesQueryOptions, useSetPreference } from "../api/preferences.ts";
import { deviceId, disablePush, enablePush, pushSupport } from "../api/push-device.ts";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";

/** A shop's switches, one per channel, as its people read them. */
const SHOP_CHANNELS = [
  ["inapp", "Dans l'application"],
  ["push", "Notifications push"],
  ["email", "E-mails"],
  ["sms", "SMS"],
] as const;

function Toggle({
  label,
  hint,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <label className="flex items-start justify-between gap-4 py-2">
      <span>
        <span className="block font-medium">{label}</span>
        {hint ? <span className="block text-sm text-stone-600 dark:text-stone-400">{hint}</span> : null}
      </span>
      <input
        type="checkbox"
        role="switch"
        aria-checked={checked}
        className="mt-1 size-6 shrink-0 accent-brand-700"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
    </label>
  );
}

/** Push on this device: explained first, the browser asked only after the tap. */
function PushCard({ prefs }: { prefs: Preferences }) {
  const support = pushSupport();
  const onThisDevice = prefs.devices.includes(deviceId());
  const { refetch } = useQuery(preferencesQueryOptions());
  // Whatever the answer, the server's list of this person's devices says whether this one is on.
  const enable = useMutation({ mutationFn: () => enablePush(prefs.vapidPublicKey), onSettled: () => refetch() });
  const disable = useMutation({ mutationFn: disablePush, onSettled: () => refetch() });
  const busy = enable.isPending || disable.isPending;
  const turnOn = () => {
    disable.reset();
    enable.mutate();
  };
  const turnOff = () => {
    enable.reset();
    disable.mutate();
  };
  const message: { tone: "error" | "success" | "info"; text: string } | null =
    enable.data === "enabled"
      ? { tone: "success", text: "Notifications activées sur cet appareil." }
      : enable.data === "denied"
        ? {
            tone: "error",
            text: "Votre navigateur a refusé les notifications. Autorisez-les dans ses réglages du site, puis réessayez.",
          }
        : enable.isError
          ? { tone: "error", text: enable.error.message || "Impossible d'activer les notifications." }
          : disable.isSuccess
            ? { tone: "info", text: "Notifications désactivées sur cet appareil." }
            : disable.isError
              ? { tone: "error", text: "Impossible de désactiver les notifications. Réessayez." }
              : null;
  return (
    <Card className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">Notifications push sur cet appareil</h2>
      {support === "ios-not-installed" ? (
        <div className="flex flex-col gap-2 text-sm" data-testid="ios-install-help">
          <p>Sur iPhone, les notifications ne fonctionnent que si Fidèle est installée sur l'écran d'accueil :</p>
          <ol className="list-decimal pl-5">
            <li>touchez le bouton Partager de Safari (le carré avec une flèche) ;</li>
            <li>choisissez « Sur l'écran d'accueil », puis « Ajouter » ;</li>
            <li>ouvrez Fidèle depuis l'écran d'accueil et revenez sur cette page.</li>
          </ol>
        </div>
      ) : support === "unsupported" ? (
        <p className="text-sm">
          Ce navigateur ne sait pas recevoir de notifications push. Vos messages restent dans l'application.
        </p>
      ) : onThisDevice ? (
        <>
          <p className="text-sm">Les notifications sont activées sur cet appareil.</p>
          <Button variant="secondary" isLoading={busy} onClick={turnOff}>
            Désactiver sur cet appareil
          </Button>
        </>
      ) : (
        <>
          <p className="text-sm">
            Recevez une alerte pour une promotion, une nouveauté ou une récompense à utiliser, même application fermée.
            Au plus 2 notifications promotionnelles par semaine et par boutique ; vous pouvez les couper à tout moment
            ici.
          </p>
          <p className="text-sm text-stone-600 dark:text-stone-400">{prefs.wording.push}</p>
          <Button isLoading={busy} onClick={turnOn}>
            Activer les notifications
          </Button>
        </>
      )}
      {message ? <Notice tone={message.tone}>{message.text}</Notice> : null}
    </Card>
  );
}

/** /notif: what I accept, per channel and per shop; every choice is kept with its wording and time. */
export default function NotifPage() {
  const query = useQuery(preferencesQueryOptions());
  const setPreference = useSetPreference();
  if (query.isPending)
    return (
      <Page title="Réglages des notifications">
        <Skeleton blocks={1} />
      </Page>
    );
  if (query.error)
    return (
      <Page title="Réglages des notifications">
        <LoadError error={query.error} />
      </Page>
    );
  const prefs = query.data;
  const pending = setPreference.isPending;
  return (
    <Page
      title="Réglages des notifications"
      lead="Choisissez ce que vous recevez, et de qui. Vous pouvez changer d'avis à tout moment."
    >
      <PushCard prefs={prefs} />
      <Card className="flex flex-col">
        <h2 className="text-lg font-semibold">Pour toutes les boutiques</h2>
        <Toggle
          label="Dans l'application"
          hint={prefs.wording.inapp}
          checked={prefs.channels.inapp}
          disabled={pending}
          onChange={(granted) => setPreference.mutate({ shopId: null, channel: "inapp", granted })}
        />
        <Toggle
          label="Notifications push"
          hint="Votre accord pour recevoir des notifications sur vos appareils activés."
          checked={prefs.channels.push}
          disabled={pending}
          onChange={(granted) => setPreference.mutate({ shopId: null, channel: "push", granted })}
        />
        <Toggle
          label="E-mails"
          hint={prefs.wording.email}
          checked={prefs.channels.email}
          disabled={pending}
          onChange={(granted) => setPreference.mutate({ shopId: null, channel: "email", granted })}
        />
        <Toggle
          label="SMS"
          hint={
            prefs.phone
              ? `${prefs.wording.sms} Au ${prefs.phone}.`
              : "Ajoutez votre numéro de mobile dans votre profil pour recevoir des SMS."
          }
          checked={prefs.channels.sms}
          disabled={pending || (!prefs.phone && !prefs.channels.sms)}
          onChange={(granted) => setPreference.mutate({ shopId: null, channel: "sms", granted })}
        />
        {prefs.phone ? null : (
          <Link to="/edit-profil" className="text-sm font-semibold text-brand-800 underline dark:text-brand-200">
            Ajouter mon numéro de mobile
          </Link>
        )}
      </Card>
      {prefs.shops.length > 0 ? (
        <Card className="flex flex-col gap-2">
          <h2 className="text-lg font-semibold">Boutique par boutique</h2>
          {prefs.shops.map((shop) => (
            <fieldset
              key={shop.id}
              className="border-t border-stone-200 pt-2 first-of-type:border-0 dark:border-stone-800"
            >
              <legend className="font-semibold">{shop.name}</legend>
              {SHOP_CHANNELS.map(([channel, label]) => (
                <Toggle
                  key={channel}
                  label={label}
                  checked={shop[channel]}
                  disabled={pending}
                  onChange={(granted) => setPreference.mutate({ shopId: shop.id, channel, granted })}
                />
              ))}
            </fieldset>
          ))}
        </Card>
      ) : null}
      {setPreference.error ? <Notice tone="error">{setPreference.error.message}</Notice> : null}
      <SavedStatus savedAt={setPreference.isSuccess ? setPreference.submittedAt : null} />
    </Page>
  );
}
