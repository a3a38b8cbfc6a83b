import { Link } from "react-router";
import { personName } from "../../../../domain/format.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { useMe } from "../../../lib/me.ts";
import { Memberships } from "../components/memberships.tsx";
import { TwoFactorNudge } from "../components/two-factor-nudge.tsx";

/**
 * /admin/monprofil: the signed-in member's back-office profile — name, role in each shop, two-factor (issue 16,
 * item 6). Every member opens it, staff included (issue 25 row 4): it reads only who they are.
 */
export default function BackOfficeProfilePage() {
  const { data: me } = useMe();
  if (!me) return null;
  const isStaffOnly = !me.user.isAdmin && me.memberships.every((m) => m.role === "member");
  return (
    <BackOfficeFrame
      scope="platform"
      title="Mon profil"
      lead={`${personName({ firstName: me.profile.firstName, lastName: me.profile.lastName, email: me.user.email })} · ${me.user.email}`}
      back={isStaffOnly ? { to: "/manager", label: "Comptoir" } : undefined}
    >
      <TwoFactorNudge me={me} />
      <Section title="Mes rôles" id="roles">
        {me.user.isAdmin ? <p className="font-medium">Administration de Fidèle (toute la plateforme)</p> : null}
        {me.memberships.length === 0 ? (
          <p className="text-stone-600 dark:text-stone-400">Vous ne faites partie d'aucune équipe de boutique.</p>
        ) : (
          <Memberships memberships={me.memberships} />
        )}
      </Section>
      <Section title="Sécurité" id="security">
        <p>
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
      </Section>
    </BackOfficeFrame>
  );
}
