import { useMutation } from "@tanstack/react-query";
import { plural } from "../../../../domain/format.ts";
import { ActionError, ReasonForm, useReasonAction, useRefreshConsole } from "./reason-form.tsx";
import { SearchList } from "./search-list.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { api, unwrap } from "../../../lib/api-client.ts";
import { adminKeys } from "../api/keys.ts";

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
  const done = useRefreshConsole();
  const param = { userId: user.id };
  const ban = useReasonAction((reason) => unwrap(api.admin.users[":userId"].ban.$post({ param, json: { reason } })));
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
  const error = ban.call.error ?? unban.error ?? signOut.error ?? resend.error;
  const who = user.name || user.email;
  return (
    <li className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <p className="break-all font-semibold">{user.email}</p>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        {user.isAdmin ? "Administration · " : ""}
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
          ) : ban.isAsking ? null : (
            <Button variant="secondary" onClick={ban.ask} aria-label={`Bannir ${who}`}>
              Bannir
            </Button>
          )}
          {user.emailVerified ? null : (
            <Button variant="secondary" isLoading={resend.isPending} onClick={() => resend.mutate()}>
              {/* The name a screen reader hears starts with the words on the button (WCAG 2.5.3, label in name). */}
              {resend.isSuccess ? "Lien renvoyé" : "Renvoyer la confirmation"}
              <span className="sr-only"> : {who}</span>
            </Button>
          )}
          {user.sessions > 0 ? (
            <Button variant="secondary" isLoading={signOut.isPending} onClick={() => signOut.mutate()}>
              Déconnecter partout<span className="sr-only"> : {who}</span>
            </Button>
          ) : null}
        </div>
      )}
      <ReasonForm action={ban} label="Motif du bannissement" confirm="Confirmer le bannissement" />
      <ActionError error={error} />
    </li>
  );
}

/** The platform's accounts, searchable: ban with a reason, unban, sign out everywhere, resend the confirmation. */
export function Users() {
  return (
    <SearchList
      id="users"
      title="Comptes"
      label="Rechercher un compte (e-mail, nom)"
      search={(q) => ({
        queryKey: adminKeys.users(q),
        queryFn: () => unwrap(api.admin.users.$get({ query: q.trim() ? { q } : {} })),
      })}
      itemsOf={(data) => data.users}
      empty="Aucun compte ne correspond."
    >
      {(user) => <UserRow key={user.id} user={user} />}
    </SearchList>
  );
}
