import { useRef, useState } from "react";
import { SHOP_ROLE_LABELS_FR } from "../../../../domain/roles.ts";
import { invitationSchema } from "../../../../domain/schemas/shops.ts";
import { Button } from "../../../components/ui/button.tsx";
import { EmailField } from "../../../components/ui/field.tsx";
import { Form } from "../../../components/ui/form.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useForm } from "../../../lib/use-form.ts";
import { useCancelInvitation } from "../api/cancel-invitation.ts";
import { useTeam } from "../api/get-team.ts";
import { useInviteStaff } from "../api/invite-staff.ts";
import { useRemoveMember } from "../api/remove-member.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { formatDate, personName } from "../../../../domain/format.ts";

function InviteForm({ shopId }: { shopId: string }) {
  const invite = useInviteStaff(shopId);
  const [sent, setSent] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm(invitationSchema, async (values) => {
    setSent(null);
    const invitation = await invite(values);
    setSent(invitation.email);
    formRef.current?.reset();
  });
  return (
    <Form ref={formRef} form={form}>
      <EmailField autoComplete="off" inputMode="email" placeholder="prenom@exemple.fr" error={form.fieldErrors.email} />
      <SelectField
        label="Rôle"
        name="role"
        defaultValue="member"
        hint={`${SHOP_ROLE_LABELS_FR.member} : le comptoir (code, crédit d'un passage, petites corrections de solde dans la limite des réglages de la carte ; au-delà, elles attendent votre accord). ${SHOP_ROLE_LABELS_FR.admin} : aussi le tableau de bord, les clients, les réglages et l'accord sur les corrections.`}
        error={form.fieldErrors.role}
      >
        <option value="member">{SHOP_ROLE_LABELS_FR.member} (comptoir)</option>
        <option value="admin">{SHOP_ROLE_LABELS_FR.admin}</option>
      </SelectField>
      {sent ? (
        <Notice tone="success">
          Invitation envoyée à <strong className="break-all">{sent}</strong>. Le lien reçu par e-mail est valable
          quelques jours.
        </Notice>
      ) : null}
      <Button type="submit" isLoading={form.isSubmitting}>
        Envoyer l'invitation
      </Button>
    </Form>
  );
}

/** A removal asked twice (« Révoquer », « Retirer »): the question, then the change; its error under the link. */
function ConfirmingAction({
  label,
  confirmLabel,
  question,
  action,
  onConfirm,
}: {
  label: string;
  confirmLabel: string;
  question: string;
  action: { isPending: boolean; error: Error | null; reset: () => void };
  onConfirm: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming || action.error) {
    return (
      <div className="flex flex-col items-end">
        <button
          type="button"
          onClick={() => {
            action.reset();
            setConfirming(true);
          }}
          className="min-h-10 px-2 text-sm font-semibold text-red-700 underline dark:text-red-400"
        >
          {label}
        </button>
        {action.error ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {errorText(action.error, "L'action a échoué.")}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <div className="flex flex-col items-end gap-2 text-sm">
      <p>{question}</p>
      <div className="flex gap-2">
        <Button variant="danger" className="!min-h-10 !px-3 text-sm" isLoading={action.isPending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
        <Button variant="secondary" className="!min-h-10 !px-3 text-sm" onClick={() => setConfirming(false)}>
          Annuler
        </Button>
      </div>
    </div>
  );
}

function RevokeInvitation({ shopId, invitation }: { shopId: string; invitation: { id: string; email: string } }) {
  const cancel = useCancelInvitation(shopId);
  return (
    <ConfirmingAction
      label="Révoquer"
      confirmLabel="Révoquer"
      question={`Révoquer l'invitation de ${invitation.email} ?`}
      action={cancel}
      onConfirm={() => cancel.mutate(invitation.id)}
    />
  );
}

function RemoveMember({ shopId, member }: { shopId: string; member: { id: string; name: string } }) {
  const remove = useRemoveMember(shopId);
  return (
    <ConfirmingAction
      label="Retirer"
      confirmLabel="Retirer"
      question={`Retirer ${member.name} de l'équipe ?`}
      action={remove}
      onConfirm={() => remove.mutate(member.id)}
    />
  );
}

function TeamBody({ shopId }: { shopId: string }) {
  const team = useTeam(shopId);
  return (
    <>
      <Section
        title="Inviter une personne"
        lead="Elle reçoit un e-mail avec un lien ; elle crée son compte ou se connecte, puis rejoint votre équipe."
      >
        <InviteForm shopId={shopId} />
      </Section>
      {team.isPending ? (
        <Skeleton />
      ) : team.isError ? (
        <LoadError error={team.error} onRetry={() => team.refetch()} />
      ) : (
        <>
          <Section title="Invitations en attente">
            {team.data.invitations.length === 0 ? (
              <p className="text-sm text-stone-600 dark:text-stone-400">Aucune invitation en attente.</p>
            ) : (
              <ul
                className="flex flex-col divide-y divide-stone-200 dark:divide-stone-800"
                aria-label="Invitations en attente"
              >
                {team.data.invitations.map((i) => (
                  <li
                    key={i.id}
                    className="flex flex-wrap items-center justify-between gap-2 py-3 first:pt-0 last:pb-0"
                  >
                    <div className="min-w-0">
                      <p className="break-all font-semibold">{i.email}</p>
                      <p className="text-sm text-stone-600 dark:text-stone-400">
                        {i.roleLabel} · expire le {formatDate(i.expiresAt)}
                      </p>
                    </div>
                    <RevokeInvitation shopId={shopId} invitation={i} />
                  </li>
                ))}
              </ul>
            )}
          </Section>
          <Section title="Équipe">
            <ul
              className="flex flex-col divide-y divide-stone-200 dark:divide-stone-800"
              aria-label="Membres de l'équipe"
            >
              {team.data.members.map((m) => (
                <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 py-3 first:pt-0 last:pb-0">
                  <div className="min-w-0">
                    <p className="font-semibold">
                      {personName(m)}
                      {m.isMe ? <span className="font-normal text-stone-600 dark:text-stone-400"> (vous)</span> : null}
                    </p>
                    <p className="break-all text-sm text-stone-600 dark:text-stone-400">
                      {m.roleLabel} · {m.email} · depuis le {formatDate(m.createdAt)}
                    </p>
                  </div>
                  {m.role !== "owner" && !m.isMe ? (
                    <RemoveMember shopId={shopId} member={{ id: m.id, name: personName(m) }} />
                  ) : null}
                </li>
              ))}
            </ul>
          </Section>
        </>
      )}
    </>
  );
}

/** /admin/invitation: invite staff by e-mail, see pending invitations (revoke them) and the team. */
export default function TeamPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      title="Équipe"
      lead="Donnez accès au comptoir à votre personnel, sans partager votre mot de passe."
    >
      {(shop) => <TeamBody shopId={shop.id} />}
    </BackOfficeFrame>
  );
}
