import type { ReactNode } from "react";
import { shopRoleLabel } from "../../../../domain/roles.ts";
import { Link } from "react-router";
import { ActivityList } from "../../../components/activity-list.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Card } from "../../../components/ui/page.tsx";
import { type Me, useMe } from "../../../lib/me.ts";
import { useActivity } from "../api/get-activity.ts";
import { formatDate, formatMoment } from "../../../../domain/format.ts";

const PROFILE_FIELDS = [
  { key: "firstName", label: "Prénom" },
  { key: "lastName", label: "Nom" },
  { key: "birthday", label: "Date de naissance" },
  { key: "postalCode", label: "Code postal" },
] as const;

/** Which optional and required profile fields are filled, as a share. */
export function profileCompleteness(profile: Me["profile"]) {
  const missing = PROFILE_FIELDS.filter((f) => !profile[f.key]);
  return { percent: Math.round(((PROFILE_FIELDS.length - missing.length) / PROFILE_FIELDS.length) * 100), missing };
}

function Row({ label, children, to, action }: { label: string; children: ReactNode; to?: string; action?: string }) {
  return (
    <div className="py-3">
      <dt className="text-sm text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="flex items-center justify-between gap-3">
        <span className="min-w-0 font-semibold text-stone-900 dark:text-stone-50">{children}</span>
        {to && action ? (
          <Link
            to={to}
            className="-my-2 inline-flex min-h-11 shrink-0 items-center rounded-lg px-3 text-sm font-semibold text-brand-800 hover:bg-brand-50 dark:text-brand-200 dark:hover:bg-stone-800"
          >
            {action}
          </Link>
        ) : null}
      </dd>
    </div>
  );
}

function Badge({ tone, children }: { tone: "ok" | "todo"; children: ReactNode }) {
  const cls =
    tone === "ok"
      ? "bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-100 dark:ring-emerald-900"
      : "bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-900";
  return <span className={`mt-1 inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${cls}`}>{children}</span>;
}

/** The shopper's activity: recent visits and rewards across shops (the ledger), and the account's facts. */
export default function DashboardPage() {
  const { data: me } = useMe();
  const activity = useActivity();
  if (!me) return null;
  const completeness = profileCompleteness(me.profile);
  const consents = me.profile.consents;
  const channels = [consents.email && "e-mail", consents.sms && "SMS", consents.push && "notifications"].filter(Boolean);

  return (
    <div className="mx-auto flex max-w-md flex-col gap-5 px-5 pb-8 pt-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Mon activité</h1>
        <p className="mt-1 text-stone-700 dark:text-stone-300">
          {me.profile.firstName ? `${me.profile.firstName}, voici` : "Voici"} où en est votre compte Fidèle.
        </p>
      </div>

      <ActivityList />

      <Card>
        <h2 className="text-lg font-semibold">Votre compte</h2>
        {activity.isError ? (
          <div className="mt-3">
            <Notice tone="error">{activity.error.message}</Notice>
          </div>
        ) : null}
        <dl className="mt-1 divide-y divide-stone-100 dark:divide-stone-800">
          <Row label="Membre depuis">
            {activity.data?.memberSince ? formatDate(activity.data.memberSince) : <span className="text-stone-500">…</span>}
          </Row>
          <Row label="Dernière activité">
            {activity.data ? (activity.data.lastSeen ? formatMoment(activity.data.lastSeen) : "maintenant") : <span className="text-stone-500">…</span>}
          </Row>
          <Row label="Sessions ouvertes" to="/protected" action="Gérer">
            {activity.data ? activity.data.activeSessions : <span className="text-stone-500">…</span>}
          </Row>
          <Row label="Adresse e-mail">
            <span className="block break-all">{me.user.email}</span>
            {me.user.emailVerified ? <Badge tone="ok">vérifiée</Badge> : <Badge tone="todo">à confirmer</Badge>}
          </Row>
          <Row label="Double authentification" to="/protected" action={me.user.twoFactorEnabled ? "Gérer" : "Activer"}>
            {me.user.twoFactorEnabled ? "Activée" : "Désactivée"}
          </Row>
        </dl>
      </Card>

      <Card>
        <div className="flex items-baseline justify-between">
          <h2 className="text-lg font-semibold">Profil</h2>
          <p className="text-sm font-semibold text-brand-800 dark:text-brand-200">{completeness.percent} % complété</p>
        </div>
        <div
          className="mt-3 h-2.5 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
          role="progressbar"
          aria-label="Profil complété"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={completeness.percent}
        >
          <div className="h-full rounded-full bg-brand-600" style={{ width: `${completeness.percent}%` }} />
        </div>
        {completeness.missing.length > 0 ? (
          <p className="mt-3 text-sm text-stone-700 dark:text-stone-300">
            À compléter : {completeness.missing.map((f) => f.label.toLowerCase()).join(", ")}.
            {completeness.missing.every((f) => f.key === "birthday" || f.key === "postalCode") ? " Ces informations sont facultatives." : ""}
          </p>
        ) : (
          <p className="mt-3 text-sm text-stone-700 dark:text-stone-300">Votre profil est complet.</p>
        )}
        <Link to="/edit-profil" className="mt-3 inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 dark:text-brand-200">
          Modifier mon profil →
        </Link>
      </Card>

      <Card>
        <h2 className="text-lg font-semibold">Messages des boutiques</h2>
        <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
          {channels.length > 0
            ? `Vous acceptez de recevoir : ${channels.join(", ")}.`
            : "Vous ne recevez aucune newsletter ni notification des boutiques."}
        </p>
        <Link to="/notif" className="mt-2 inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 dark:text-brand-200">
          Régler mes notifications →
        </Link>
      </Card>

      {me.memberships.length > 0 ? (
        <Card>
          <h2 className="text-lg font-semibold">Vos boutiques</h2>
          <ul className="mt-2 divide-y divide-stone-100 dark:divide-stone-800">
            {me.memberships.map((m) => (
              <li key={m.shopId} className="flex items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="truncate font-semibold">{m.shopName}</p>
                  <p className="text-sm text-stone-600 dark:text-stone-400">{shopRoleLabel(m.role)}</p>
                </div>
                <Link
                  to={m.role === "owner" ? "/admin" : "/manager"}
                  className="inline-flex min-h-11 shrink-0 items-center rounded-lg bg-brand-50 px-3 text-sm font-semibold text-brand-800 dark:bg-stone-800 dark:text-brand-200"
                >
                  {m.role === "owner" ? "Espace commerçant" : "Comptoir"}
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      <nav aria-label="Raccourcis" className="grid grid-cols-2 gap-3">
        <Link to="/cartes-de-fidelite" className="rounded-2xl bg-brand-700 p-4 font-semibold text-white shadow-sm hover:bg-brand-800">
          Mes cartes
        </Link>
        <Link to="/boutique-a-proximite" className="rounded-2xl border border-stone-200 bg-white p-4 font-semibold shadow-sm dark:border-stone-800 dark:bg-stone-900">
          Boutiques à proximité
        </Link>
      </nav>
    </div>
  );
}
