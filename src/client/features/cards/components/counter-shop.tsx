import { useId } from "react";
import { useSearchParams } from "react-router";
import { useMe } from "../../../lib/me.ts";

const STORAGE_KEY = "fidele:counter-shop";

/**
 * Which shop the counter pages work for: ?boutique=<shopId> when given (a platform admin, a link), else the last
 * one chosen on this device, else the first shop the person belongs to.
 */
export function useCounterShop() {
  const { data: me } = useMe();
  const [params, setParams] = useSearchParams();
  const shops = me?.memberships ?? [];
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(STORAGE_KEY);
  } catch {
    // No storage: the first shop.
  }
  const wanted = params.get("boutique");
  const shopId = wanted ?? shops.find((s) => s.shopId === saved)?.shopId ?? shops[0]?.shopId ?? null;
  const shopName = shops.find((s) => s.shopId === shopId)?.shopName ?? null;
  const choose = (id: string) => {
    try {
      localStorage.setItem(STORAGE_KEY, id);
    } catch {
      // Kept for this page only.
    }
    const next = new URLSearchParams(params);
    next.set("boutique", id);
    setParams(next, { replace: true });
  };
  return { shopId, shopName, shops, choose };
}

/** A shop picker, shown only to people who work for more than one shop. */
export function CounterShopPicker({ counter }: { counter: ReturnType<typeof useCounterShop> }) {
  const id = useId();
  if (counter.shops.length < 2) return null;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-stone-800 dark:text-stone-200">
        Boutique
      </label>
      <select
        id={id}
        value={counter.shopId ?? ""}
        onChange={(e) => counter.choose(e.target.value)}
        className="min-h-12 rounded-xl border border-stone-300 bg-white px-4 text-base text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
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
