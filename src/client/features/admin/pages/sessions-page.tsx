import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { formatMoment } from "../../../../domain/format.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { api, errorText, unwrap } from "../../../lib/api-client.ts";
import { describeDevice } from "../../../lib/describe-device.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { adminKeys } from "../api/keys.ts";

/** /admin/sessions: open sessions — one's own, an owner's team's, anyone's for the platform admin — to end. */
export default function SessionsPage() {
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: adminKeys.sessions(), queryFn: () => unwrap(api.admin.sessions.$get()) });
  const revoke = useMutation({
    mutationFn: (sessionId: string) => unwrap(api.admin.sessions[":sessionId"].$delete({ param: { sessionId } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.sessions() }),
  });
  return (
    <BackOfficeFrame
      scope="platform"
      title="Sessions"
      lead="Les appareils connectés à un compte. « Déconnecter » ferme la session à distance."
    >
      {revoke.isError ? <Notice tone="error">{errorText(revoke.error, "La déconnexion a échoué.")}</Notice> : null}
      <QueryState query={sessions}>
        {(data) => (
          <ul className="flex flex-col gap-2">
            {data.sessions.map((s) => (
              <li
                key={s.id}
                className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
              >
                <div className="min-w-0">
                  <p className="font-semibold">
                    {describeDevice(s.userAgent)}
                    {s.isCurrent ? " · cet appareil" : ""}
                  </p>
                  <p className="truncate text-sm text-stone-700 dark:text-stone-300">
                    {s.isMine ? "Vous" : s.user.name || s.user.email}
                  </p>
                  <p className="text-sm text-stone-600 dark:text-stone-400">
                    Active {formatMoment(s.lastActiveAt)} · ouverte {formatMoment(s.createdAt)}
                    {s.place ? ` · ${s.place}` : ""}
                  </p>
                </div>
                {s.isCurrent ? null : (
                  <Button
                    variant="secondary"
                    isLoading={revoke.isPending && revoke.variables === s.id}
                    onClick={() => revoke.mutate(s.id)}
                    aria-label={`Déconnecter ${describeDevice(s.userAgent)} de ${s.isMine ? "votre compte" : s.user.email}`}
                  >
                    Déconnecter
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </BackOfficeFrame>
  );
}
