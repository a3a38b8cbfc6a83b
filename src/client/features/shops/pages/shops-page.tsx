import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { SHOP_CATEGORIES, SHOP_CATEGORY_VALUES, type ShopCategory } from "../../../../domain/schemas/shops.ts";
import { Glyph } from "../../../components/loyalty/glyph.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { searchShopsQueryOptions } from "../api/search-shops.ts";
import { ShopRows, ShopRowsSkeleton } from "../components/shop-row.tsx";

const DEBOUNCE_MS = 300;

/** Shorter chip labels: "Boulangerie – Pâtisserie" → "Boulangerie". */
const chipLabel = (label: string) => label.split(" – ")[0] ?? label;

const isCategory = (value: string | null): value is ShopCategory => SHOP_CATEGORY_VALUES.includes(value as ShopCategory);

/**
 * /boutiques: every active shop, searched by name, city, category or postal code (typed text is sent 300 ms
 * after the last key), filtered by category chips, 20 at a time with "Voir plus". The search lives in the URL,
 * so "back" from a shop finds the same list.
 */
export default function ShopsPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get("q")?.trim() ?? "";
  const categoryParam = params.get("categorie");
  const category = isCategory(categoryParam) ? categoryParam : undefined;
  const [text, setText] = useState(q);
  const inputId = useId();

  // Debounced: the URL (and so the query) follows the text once typing pauses.
  const latest = useRef(params);
  latest.current = params;
  useEffect(() => {
    const handle = window.setTimeout(() => {
      const next = new URLSearchParams(latest.current);
      if (text.trim()) next.set("q", text.trim());
      else next.delete("q");
      if (next.toString() !== latest.current.toString()) setParams(next, { replace: true });
    }, DEBOUNCE_MS);
    return () => window.clearTimeout(handle);
  }, [text, setParams]);

  const setCategory = (value: ShopCategory | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set("categorie", value);
    else next.delete("categorie");
    setParams(next, { replace: true });
  };

  const shops = useInfiniteQuery({ ...searchShopsQueryOptions({ q: q || undefined, category }), placeholderData: keepPreviousData });
  const list = shops.data?.pages.flatMap((p) => p.shops) ?? [];
  const categoryName = category ? SHOP_CATEGORIES.find((c) => c.value === category)?.label : undefined;

  return (
    <div className="mx-auto flex max-w-md flex-col gap-4 px-5 pb-8 pt-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Boutiques</h1>
        <p className="mt-1 text-stone-700 dark:text-stone-300">Les commerces qui proposent une carte Fidèle.</p>
      </div>

      <form role="search" onSubmit={(e) => e.preventDefault()} className="relative">
        <label htmlFor={inputId} className="sr-only">
          Rechercher une boutique par nom, ville ou catégorie
        </label>
        <Glyph name="search" className="pointer-events-none absolute left-4 top-1/2 size-5 -translate-y-1/2 text-stone-500" />
        <input
          id={inputId}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="Nom, ville ou catégorie"
          enterKeyHint="search"
          autoComplete="off"
          maxLength={80}
          className="min-h-12 w-full rounded-2xl border border-stone-300 bg-white pl-12 pr-4 text-base text-stone-900 shadow-sm placeholder:text-stone-500 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
        />
      </form>

      <div className="-mx-5 overflow-x-auto px-5 pb-1 [scrollbar-width:none]" role="group" aria-label="Catégories">
        <div className="flex w-max gap-2">
          {[{ value: undefined, label: "Toutes" }, ...SHOP_CATEGORIES].map((c) => {
            const isActive = c.value === category;
            return (
              <button
                key={c.value ?? "all"}
                type="button"
                aria-pressed={isActive}
                onClick={() => setCategory(c.value)}
                className={`min-h-10 whitespace-nowrap rounded-full px-4 text-sm font-semibold transition ${
                  isActive
                    ? "bg-brand-700 text-white shadow-sm"
                    : "bg-white text-stone-800 ring-1 ring-stone-300 hover:bg-stone-100 dark:bg-stone-900 dark:text-stone-200 dark:ring-stone-700"
                }`}
              >
                {chipLabel(c.label)}
              </button>
            );
          })}
        </div>
      </div>

      <Link
        to="/boutique-a-proximite"
        className="flex items-center gap-3 rounded-2xl bg-brand-50 p-4 font-semibold text-brand-900 ring-1 ring-brand-200 hover:bg-brand-100 dark:bg-stone-900 dark:text-brand-100 dark:ring-stone-800"
      >
        <Glyph name="pin" className="size-5 shrink-0" />
        <span className="flex-1">Voir les boutiques autour de moi</span>
        <Glyph name="chevron" className="size-5" />
      </Link>

      {shops.isError ? <Notice tone="error">{shops.error.message}</Notice> : null}
      {shops.isPending ? (
        <ShopRowsSkeleton />
      ) : list.length === 0 ? (
        <div className="rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800" role="status">
          <p className="font-semibold">
            {q ? `Aucune boutique ne correspond à « ${q} »` : "Aucune boutique"}
            {categoryName ? ` dans la catégorie ${chipLabel(categoryName)}` : ""}.
          </p>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">Essayez un autre nom, une ville ou un code postal.</p>
        </div>
      ) : (
        <>
          <p className="sr-only" role="status">
            {list.length} boutique{list.length > 1 ? "s" : ""} affichée{list.length > 1 ? "s" : ""}
          </p>
          <ShopRows shops={list} pages={shops} />
        </>
      )}
    </div>
  );
}
