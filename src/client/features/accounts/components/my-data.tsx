import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { formatDateTime } from "../../../../domain/format.ts";
import { Button } from "../../../components/ui/button.tsx";
import { DownloadButton } from "../../../components/ui/download-button.tsx";
import { Field, PasswordField } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { api, errorText, unwrap } from "../../../lib/api-client.ts";
import { meQueryOptions } from "../../../lib/me.ts";
import { accountsKeys } from "../api/keys.ts";

const CHANNEL_LABEL = { email: "E-mail", sms: "SMS", push: "Notifications" } as const;

const card = "rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900";

/** « Mes données » (RGPD): the archive of everything about me, and the history of my consents. */
export function MyDataSection() {
  const history = useQuery({
    queryKey: accountsKeys.consents(),
    queryFn: () => unwrap(api.accounts.me.consents.$get()),
  });
  return (
    <section aria-labelledby="my-data-title" className={card}>
      <h2 id="my-data-title" className="text-lg font-semibold">
        Mes données
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Tout ce que Fidèle garde sur vous, en une archive : profil, cartes, points, passages, récompenses, jeux,
        messages, consentements. Des tableaux à ouvrir avec un tableur, un fichier LISEZ-MOI qui dit ce que contient
        chacun, et le tout au format JSON pour le reprendre ailleurs.
      </p>
      <div className="mt-3">
        <DownloadButton url="/api/accounts/me/export" fallbackName="fidele-mes-donnees.zip">
          Télécharger mes données
        </DownloadButton>
      </div>
      <h3 className="mt-4 text-sm font-semibold uppercase tracking-wide text-stone-600 dark:text-stone-400">
        Historique de mes consentements
      </h3>
      {history.data ? (
        history.data.consents.length === 0 ? (
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">Aucun consentement enregistré.</p>
        ) : (
          <ul className="mt-2 flex flex-col gap-2">
            {history.data.consents.map((c) => (
              <li key={`${c.channel}-${c.at}-${c.granted}`} className="text-sm">
                <span className="font-medium">
                  {CHANNEL_LABEL[c.channel]} — {c.granted ? "accepté" : "refusé"}
                </span>{" "}
                <span className="text-stone-600 dark:text-stone-400">le {formatDateTime(c.at)}</span>
                <span className="block text-stone-600 dark:text-stone-400">« {c.wording} »</span>
              </li>
            ))}
          </ul>
        )
      ) : history.error ? (
        <p className="mt-1 text-sm text-red-700 dark:text-red-400">L'historique n'a pas pu être chargé.</p>
      ) : null}
    </section>
  );
}

/** « Supprimer mon compte »: confirmed by the password, or by a code sent by e-mail (no password, or forgotten). */
export function DeleteAccountSection() {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [byCode, setByCode] = useState(false);
  const [code, setCode] = useState("");
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const erase = useMutation({
    mutationFn: () => unwrap(api.accounts.me.$delete({ json: byCode ? { code } : { password } })),
    onSuccess: async () => {
      // Leave the signed-in page first (emptied earlier, its guard would send us to /login), then forget everything.
      await navigate("/", { replace: true, state: { notice: "Votre compte et vos données ont été supprimés." } });
      queryClient.clear();
      queryClient.setQueryData(meQueryOptions().queryKey, null);
    },
  });
  const sendCode = useMutation({
    mutationFn: () => unwrap(api.accounts.me["erase-code"].$post()),
    onSuccess: () => setByCode(true),
  });
  const busy = erase.isPending || erase.isSuccess || sendCode.isPending;
  const error = erase.isError
    ? errorText(erase.error, "La suppression a échoué. Réessayez.")
    : sendCode.isError
      ? errorText(sendCode.error, "Le code n'a pas pu être envoyé. Réessayez.")
      : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    sendCode.reset();
    erase.mutate();
  };

  return (
    <section aria-labelledby="delete-account-title" className={card}>
      <h2 id="delete-account-title" className="text-lg font-semibold">
        Supprimer mon compte
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Vos données personnelles sont effacées tout de suite et définitivement. Vos récompenses en attente sont
        annulées. Les boutiques gardent leurs chiffres, sans votre nom.
      </p>
      {open ? (
        <form onSubmit={onSubmit} className="mt-3 flex flex-col gap-3" noValidate>
          {error ? <Notice tone="error">{error}</Notice> : null}
          {sendCode.data ? (
            <Notice tone="success">
              {`Un code à 6 chiffres a été envoyé à ${sendCode.data.sentTo}. Il est valable ${sendCode.data.minutes} minutes.`}
            </Notice>
          ) : null}
          {byCode ? (
            <Field
              label="Code reçu par e-mail"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onValue={setCode}
              required
            />
          ) : (
            <PasswordField
              label="Mot de passe, pour confirmer"
              autoComplete="current-password"
              value={password}
              onValue={setPassword}
              required
            />
          )}
          <Button type="submit" variant="danger" full isLoading={erase.isPending || erase.isSuccess} disabled={busy}>
            Supprimer définitivement mon compte
          </Button>
          <Button
            type="button"
            variant="secondary"
            full
            disabled={busy}
            onClick={() => {
              erase.reset();
              sendCode.mutate();
            }}
          >
            {byCode ? "Renvoyer un code" : "Pas de mot de passe ? Recevoir un code par e-mail"}
          </Button>
          <Button type="button" variant="secondary" full onClick={() => setOpen(false)}>
            Annuler
          </Button>
        </form>
      ) : (
        <div className="mt-3">
          <Button variant="secondary" full onClick={() => setOpen(true)} className="text-red-700 dark:text-red-400">
            Supprimer mon compte…
          </Button>
        </div>
      )}
    </section>
  );
}
