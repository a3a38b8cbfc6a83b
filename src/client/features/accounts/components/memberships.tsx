import { shopRoleLabel } from "../../../../domain/roles.ts";
import type { Me } from "../../../lib/me.ts";

/** The shops a person works in, each with their role in it (shopRoleLabel: Propriétaire, Responsable, Membre de l'équipe). */
export function Memberships({ memberships, className = "" }: { memberships: Me["memberships"]; className?: string }) {
  return (
    <ul className={`flex flex-col gap-1 ${className}`}>
      {memberships.map((m) => (
        <li key={m.shopId} className="flex items-center justify-between gap-3 py-1">
          <span className="truncate font-medium">{m.shopName}</span>
          <span className="shrink-0 rounded-full bg-stone-100 px-2.5 py-0.5 text-xs font-semibold text-stone-700 dark:bg-stone-800 dark:text-stone-300">
            {shopRoleLabel(m.role)}
          </span>
        </li>
      ))}
    </ul>
  );
}
