import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { plural } from "../../../../domain/format.ts";
import { ActionError, ReasonForm } from "./reason-form.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { api, unwrap } from "../../../lib/api-client.ts";
import { QueryState } from "../console-frame.tsx";

/** The platform admin's accounts: search, ban with a reason, unban, sign out everywhere, resend confirmation. */
type User = {
  id: string;
  email: string;
  name: string | null;
  isAdmin: boolean;
  banned: boolean;
  banReason: string | null;
  emailVerified: boolean;
  sessions: number;
};

function UserRow({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState("");
  const [asking, setAsking] = useState(false);
  const done = () => {
    setAsking(false);
    setReason("");
    return queryClient.invalidateQueries({ queryKey: ["admin"] });
  };
  const param = { userId: user.id };
  const ban = useMutation({
    mutationFn: () => unwrap(api.admin.users[":userId"].ban.$post({ param, json: { reason } })),
    onSuccess: done,
  });
  const unban = useMutation({
    mutationFn: () => unwrap(api.admin.users[":userId"].unban.$post({ param })),
    onSuccess: done,
  });
  const signOut = useMutation({
    mutationFn: () => unwrap(api.admin.users[":userId"]["sign-out"].$post({ param })),
    onSuccess: done,
  });
  const resend = useMutation({
    mutationFn: () => unwrap(api.admin.users[":userId"]["resend-confirmation"].$post({ param })),
    onSuccess: done,
  });
  const error = ban.error ?? unban.error ?? signOut.error ?? resend.error;
  const who = user.name || user.email;
  return (
    <li className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <p className="break-all font-semibold">{user.email}</p>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        {user.isAdmin ? "Administrateur · " : ""}
        {user.emailVerified ? "adresse confirmée" : "adresse non confirmée"} ·{" "}
        {plural(user.sessions, "session", "sessions")}
      </p>
      {user.banned ? (
        <p className="mt-1 text-sm font-semibold text-red-700 dark:text-red-400">
          Banni{user.banReason ? ` : ${user.banReason}` : ""}
        </p>
      ) : null}
      {user.isAdmin ? null : (
        <div className="mt-2 flex flex-wrap gap-2">
          {user.banned ? (
            <Button
              variant="secondary"
              isLoading={unban.isPending}
              onClick={() => unban.mutate()}
              aria-label={`Débannir ${who}`}
            >
              Débannir
            </Button>
          ) : asking ? null : (
            <Button variant="secondary" onClick={() => setAsking(true)} aria-label={`Bannir ${who}`}>
              Bannir
            </Button>
          )}
          {user.emailVerified ? null : (
            <Button
              variant="secondary"
              isLoading={resend.isPending}
              onClick={() => resend.mutate()}
              aria-label={`Renvoyer le lien de confirmation à ${who}`}
            >
              {resend.isSuccess ? "Lien renvoyé" : "Renvoyer la confirmation"}
            </Button>
          )}
          {user.sessions > 0 ? (
            <Button
              variant="secondary"
              isLoading={signOut.isPending}
              onClick={() => signOut.mutate()}
              aria-label={`Déconnecter ${who} partout`}
            >
              Déconnecter partout
            </Button>
          ) : null}
        </div>
      )}
      {asking ? (
        <ReasonForm
          label="Motif du bannissement"
          confirm="Confirmer le bannissement"
          reason={reason}
          onReason={setReason}
          onSubmit={() => ban.mutate()}
          onCancel={() => setAsking(false)}
          isPending={ban.isPending}
        />
      ) : null}
      <ActionError error={error} />
    </li>
  );
}

export function Users() {
  const [q, setQ] = useState("");
  const users = useQuery({
    queryKey: ["admin", "users", q],
    queryFn: () => unwrap(api.admin.users.$get({ query: q.trim() ? { q } : {} })),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="users-title" className="flex flex-col gap-3">
      <h2 id="users-title" className="text-lg font-semibold">
        Comptes
      </h2>
      <Field
        label="Rechercher un compte (e-mail, nom)"
        type="search"
        value={q}
        onChange={(e) => setQ(e.target.value)}
      />
      <QueryState query={users}>
        {(data) =>
          data.users.length === 0 ? (
            <p>Aucun compte ne correspond.</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {data.users.map((u) => (
                <UserRow key={u.id} user={u} />
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}
