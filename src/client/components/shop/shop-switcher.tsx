import { useId } from "react";
import { shopRoleLabel } from "../../../domain/roles.ts";
import type { MyShop } from "./current-shop.ts";

/** A select of my shops, for the dark admin bar; shown only to people with several shops. */
export function ShopSwitcher({
  shops,
  value,
  onChange,
}: {
  shops: readonly MyShop[];
  value: string | null;
  onChange: (id: string) => void;
}) {
  const id = useId();
  if (shops.length < 2) return null;
  return (
    <div className="min-w-0 flex-1">
      <label htmlFor={id} className="block text-xs uppercase tracking-wide text-brand-100">
        Boutique
      </label>
      <select
        id={id}
        value={value ?? ""}
        onChange={(event) => onChange(event.target.value)}
        className="w-full max-w-64 truncate rounded-md bg-brand-800 py-0.5 pl-1 pr-6 text-sm font-semibold text-white"
      >
        {value && !shops.some((s) => s.id === value) ? <option value={value}>Autre boutique</option> : null}
        {shops.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name} ({shopRoleLabel(s.role).toLowerCase()}){s.status === "suspended" ? " – suspendue" : ""}
          </option>
        ))}
      </select>
    </div>
  );
}
