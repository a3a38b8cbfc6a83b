import { useQuery } from "@tanstack/react-query";
import { formatDateTime, plural } from "../../../../domain/format.ts";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { api, unwrap } from "../../../lib/api-client.ts";
import { adminKeys } from "../api/keys.ts";

/** A message's text with its links made clickable (a confirmation link, a reset link…). */
function linksOf(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"]+/g) ?? [])];
}

/** Every e-mail the instance made: without SMTP they stay here, and their links are the way to confirm an account. */
export function Outbox() {
  const outbox = useQuery({ queryKey: adminKeys.outbox(), queryFn: () => unwrap(api.admin.outbox.$get()) });
  return (
    <Section bare stack id="outbox" title="Boîte d'envoi des courriels">
      <p className="text-sm text-stone-700 dark:text-stone-300">
        Sans serveur SMTP, les courriels restent ici : ouvrez le lien d'un message pour confirmer un compte à la place
        de son destinataire.
      </p>
      <QueryState query={outbox}>
        {(data) =>
          data.messages.length === 0 ? (
            <p>Aucun courriel.</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {data.messages.map((m) => (
                <li
                  key={m.id}
                  className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
                >
                  <p className="font-semibold">{m.subject}</p>
                  <p className="text-sm text-stone-600 dark:text-stone-400">
                    À {m.to} · {formatDateTime(m.createdAt)} ·{" "}
                    {m.status === "sent" ? "envoyé" : m.status === "failed" ? "échec" : "gardé ici"}
                  </p>
                  <ul className="mt-1 flex flex-col gap-1">
                    {linksOf(m.text).map((href) => (
                      <li key={href} className="break-all text-sm">
                        <a href={href} className="font-semibold text-brand-800 underline dark:text-brand-200">
                          {href}
                        </a>
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </Section>
  );
}

const SMS_STATUS_FR = { kept: "gardé ici", sent: "envoyé", failed: "échec" } as const;
const SMS_KIND_FR = { test: "test", campaign: "campagne", verification: "code de vérification" } as const;

/** Every SMS (tests and campaigns), with what the gateway answered; without a gateway they stay here. */
export function SmsOutbox() {
  const outbox = useQuery({ queryKey: adminKeys.smsOutbox(), queryFn: () => unwrap(api.sms.outbox.$get()) });
  return (
    <Section bare stack id="sms-outbox" title="Boîte d'envoi des SMS">
      <p className="text-sm text-stone-700 dark:text-stone-300">
        Sans passerelle SMS configurée (SMS_PROVIDER), les SMS restent ici ; sinon chacun est listé avec la réponse de
        la passerelle.
      </p>
      <QueryState query={outbox}>
        {(data) =>
          data.messages.length === 0 ? (
            <p>Aucun SMS.</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {data.messages.map((m) => (
                <li
                  key={m.id}
                  className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
                >
                  <p className="whitespace-pre-wrap break-words">{m.text}</p>
                  <p className="text-sm text-stone-600 dark:text-stone-400">
                    À {m.to}
                    {m.shopName ? ` · ${m.shopName}` : ""} · {SMS_KIND_FR[m.kind]} · {plural(m.segments, "SMS", "SMS")}{" "}
                    · {formatDateTime(m.createdAt)} · {SMS_STATUS_FR[m.status]}
                  </p>
                  {m.answer && m.status !== "kept" ? (
                    <p className="break-all text-xs text-stone-600 dark:text-stone-400">{m.answer}</p>
                  ) : null}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </Section>
  );
}
