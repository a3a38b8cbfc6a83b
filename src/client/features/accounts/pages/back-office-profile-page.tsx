import { Link } from "react-router";
import { personName } from "../../../../domain/format.ts";
import { shopRoleLabel } from "../../../../domain/roles.ts";
import { useMe } from "../../../lib/me.ts";
import { TwoFactorNudge } from "../components/two-factor-nudge.tsx";

const box = "rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900";

/** /admin/monprofil: the signed-in member's back-office profile — name, role in each shop, two-factor (issue 16, item 6). */
export default function BackOfficeProfilePage() {
  const { data: me } = useMe();
  if (!me) return null;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-5 px-4 pb-12 pt-5 sm:px-6">
      <Link
        to="/admin"
        className="inline-flex min-h-10 items-center gap-1 text-sm font-semibold text-brand-800 dark:text-brand-200"
      >
        <span aria-hidden="true">←</span> Tableau de bord
      </Link>
      <header>
        <h1 className="text-2xl font-bold tracking-tight">Mon profil</h1>
        <p className="mt-1 text-stone-600 dark:text-stone-400">
          {personName({ firstName: me.profile.firstName, lastName: me.profile.lastName, email: me.user.email })} ·{" "}
          {me.user.email}
        </p>
      </header>
      <TwoFactorNudge me={me} />
      <section aria-labelledby="roles-title" className={box}>
        <h2 id="roles-title" className="text-lg font-semibold">
          Mes rôles
        </h2>
        {me.user.isAdmin ? <p className="mt-1 font-medium">Administrateur Fidèle (toute la plateforme)</p> : null}
        {me.memberships.length === 0 ? (
          <p className="mt-1 text-stone-600 dark:text-stone-400">Vous ne faites partie d'aucune équipe de boutique.</p>
        ) : (
          <ul className="mt-2 flex flex-col gap-1">
            {me.memberships.map((m) => (
              <li key={m.shopId} className="flex items-center justify-between gap-3 py-1">
                <span className="truncate font-medium">{m.shopName}</span>
                <span className="shrink-0 rounded-full bg-stone-100 px-2.5 py-0.5 text-xs font-semibold text-stone-700 dark:bg-stone-800 dark:text-stone-300">
                  {shopRoleLabel(m.role)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="security-title" className={box}>
        <h2 id="security-title" className="text-lg font-semibold">
          Sécurité
        </h2>
        <p className="mt-1">
          Double authentification : <strong>{me.user.twoFactorEnabled ? "activée" : "désactivée"}</strong>
        </p>
        <div className="mt-2 flex flex-col gap-1 text-sm font-semibold">
          <Link to="/protected" className="text-brand-800 underline dark:text-brand-200">
            Mes appareils connectés et la double authentification
          </Link>
          <Link to="/edit-profil" className="text-brand-800 underline dark:text-brand-200">
            Modifier mon nom
          </Link>
        </div>
      </section>
    </div>
  );
}
