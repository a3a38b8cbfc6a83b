import { Link } from "react-router";
import type { Me } from "../../../lib/me.ts";
import { Glyph } from "../../../components/loyalty/glyph.tsx";

/** Shop owners and admins hold other people's data: they are asked to turn on two-factor. */
function shouldNudgeTwoFactor(me: Me): boolean {
  const isPrivileged = me.user.isAdmin || me.memberships.some((m) => m.role === "owner" || m.role === "admin");
  return isPrivileged && !me.user.twoFactorEnabled;
}

export function TwoFactorNudge({ me, withLink = true }: { me: Me; withLink?: boolean }) {
  if (!shouldNudgeTwoFactor(me)) return null;
  const who = me.user.isAdmin ? "administrateur" : "commerçant";
  return (
    <div
      className="flex gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-50"
      role="status"
    >
      <Glyph name="shield" className="mt-0.5 size-6 shrink-0 text-amber-700 dark:text-amber-300" />
      <div className="flex flex-col gap-1">
        <p className="font-semibold">Protégez votre compte {who}</p>
        <p className="text-sm">
          Votre compte donne accès aux données de vos clients. Activez la double authentification : même avec votre mot
          de passe, personne ne pourra s'y connecter sans votre téléphone.
        </p>
        {withLink ? (
          <Link to="/protected" className="mt-1 self-start text-sm font-semibold underline">
            Activer la double authentification
          </Link>
        ) : null}
      </div>
    </div>
  );
}
