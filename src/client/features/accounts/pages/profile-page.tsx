import { Link, useLocation } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useMe } from "../../../lib/me.ts";
import { useSignOut } from "../api/sign-out.ts";
import { Glyph, type GlyphName } from "../../../components/loyalty/glyph.tsx";
import { DeleteAccountSection, MyDataSection } from "../components/my-data.tsx";
import { Memberships } from "../components/memberships.tsx";
import { TwoFactorNudge } from "../components/two-factor-nudge.tsx";

export default function ProfilePage() {
  const { data: me } = useMe();
  const location = useLocation();
  const notice = (location.state as { notice?: string } | null)?.notice;
  const signOut = useSignOut();
  if (!me) return null;

  const fullName = [me.profile.firstName, me.profile.lastName].filter(Boolean).join(" ");
  const initials =
    ((me.profile.firstName?.[0] ?? "") + (me.profile.lastName?.[0] ?? "")).toUpperCase() ||
    me.user.email[0]?.toUpperCase();

  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-5 px-5 pb-8 pt-6">
      <section className="flex items-center gap-4">
        <div
          className="flex size-16 shrink-0 items-center justify-center rounded-full bg-brand-700 text-xl font-bold text-white"
          aria-hidden="true"
        >
          {initials}
        </div>
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-bold tracking-tight">{fullName || "Mon profil"}</h1>
          <p className="truncate text-stone-600 dark:text-stone-400">{me.user.email}</p>
          {me.user.isAdmin ? (
            <p className="mt-1 inline-block rounded-full bg-brand-100 px-2.5 py-0.5 text-xs font-semibold text-brand-900">
              Administration de Fidèle
            </p>
          ) : null}
        </div>
      </section>

      {notice ? <Notice tone="success">{notice}</Notice> : null}
      {signOut.isError ? (
        <Notice tone="error">{errorText(signOut.error, "La déconnexion a échoué. Réessayez.")}</Notice>
      ) : null}
      <TwoFactorNudge me={me} />

      {me.memberships.length > 0 ? (
        <section className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900">
          <h2 className="text-sm font-semibold uppercase tracking-wide text-stone-600 dark:text-stone-400">
            Mes boutiques
          </h2>
          <Memberships memberships={me.memberships} className="mt-2" />
        </section>
      ) : null}

      <nav
        aria-label="Mon compte"
        className="overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm dark:border-stone-800 dark:bg-stone-900"
      >
        <ul className="divide-y divide-stone-200 dark:divide-stone-800">
          <MenuLink
            to="/edit-profil"
            icon="user"
            label="Modifier mon profil"
            detail="Nom, anniversaire, préférences de contact"
          />
          <MenuLink
            to="/cartes-de-fidelite"
            icon="device"
            label="Ma carte client"
            detail="Le code à montrer au comptoir, dans Mes cartes"
          />
          <MenuLink
            to="/recuperer"
            icon="card"
            label="Récupérer un code"
            detail="Une carte cadeau reçue, le solde d'une ancienne carte"
          />
          <MenuLink to="/changer-mot-de-passe" icon="key" label="Changer de mot de passe" />
          <MenuLink
            to="/protected"
            icon="shield"
            label="Sécurité du compte"
            detail={
              me.user.twoFactorEnabled
                ? "Double authentification activée"
                : "Appareils connectés, double authentification"
            }
          />
        </ul>
      </nav>

      <MyDataSection />

      <Button
        variant="secondary"
        full
        // Still busy once signed out: the sign-in page is on its way.
        isLoading={signOut.isPending || signOut.isSuccess}
        onClick={() => signOut.mutate()}
        className="text-red-700 dark:text-red-400"
      >
        <Glyph name="logout" className="size-5" />
        Se déconnecter
      </Button>

      <DeleteAccountSection />
    </div>
  );
}

function MenuLink({ to, icon, label, detail }: { to: string; icon: GlyphName; label: string; detail?: string }) {
  return (
    <li>
      <Link to={to} className="flex min-h-16 items-center gap-4 px-4 py-3 hover:bg-stone-50 dark:hover:bg-stone-800">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-800 dark:bg-stone-800 dark:text-brand-200">
          <Glyph name={icon} className="size-5" />
        </span>
        <span className="min-w-0 flex-1">
          <span className="block font-medium">{label}</span>
          {detail ? <span className="block truncate text-sm text-stone-600 dark:text-stone-400">{detail}</span> : null}
        </span>
        <Glyph name="chevron" className="size-5 shrink-0 text-stone-400" />
      </Link>
    </li>
  );
}
