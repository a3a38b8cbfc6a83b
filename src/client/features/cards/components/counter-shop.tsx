import { useId } from "react";
import { useCurrentShop } from "../../../components/shop/current-shop.ts";
import { useMe } from "../../../lib/me.ts";

/**
 * Which shop the counter pages work for: the back office's current shop (components/shop/current-shop.ts:
 * ?boutique=<shopId> when given, else the one chosen on this device, else the first), so the admin bar's switcher
 * and the counter's picker are one choice, never two (issue 25 row 17).
 */
export function useCounterShop() {
  const { data: me } = useMe();
  const current = useCurrentShop({ enabled: Boolean(me) });
  const shops = me?.memberships ?? [];
  const shopName = shops.find((s) => s.shopId === current.shopId)?.shopName ?? current.shop?.name ?? null;
  return { shopId: current.shopId, shopName, shops, choose: current.select };
}

/**
 * A shop picker for the counter's code screen (it has no admin bar, whose switcher the other counter pages use),
 * shown only to people who work for more than one shop. On a white ground whatever the shop's colours: its label
 * stays readable (issue 25 row 17: 1.6:1 on a dark card colour).
 */
export function CounterShopPicker({ counter }: { counter: ReturnType<typeof useCounterShop> }) {
  const id = useId();
  if (counter.shops.length < 2) return null;
  return (
    <div className="flex min-w-0 items-center gap-2 rounded-xl bg-white py-1 pl-3 pr-1 text-stone-900 shadow-sm">
      <label htmlFor={id} className="shrink-0 text-sm font-medium text-stone-700">
        Boutique
      </label>
      <select
        id={id}
        value={counter.shopId ?? ""}
        onChange={(e) => counter.choose(e.target.value)}
        className="min-h-11 w-full min-w-0 truncate rounded-lg border border-stone-300 bg-white px-2 text-base text-stone-900"
      >
        {counter.shops.map((s) => (
          <option key={s.shopId} value={s.shopId}>
            {s.shopName}
          </option>
        ))}
      </select>
    </div>
  );
}
