import { useState } from "react";

/** The update banner's content (see update-banner.tsx for when it shows). */
export default function UpdateBannerView({ onReload }: { onReload: () => void }) {
  const [isReloading, setReloading] = useState(false);
  return (
    <div className="fixed inset-x-0 top-0 z-[80] px-3 pt-[max(env(safe-area-inset-top),0.75rem)]">
      <div
        role="status"
        className="mx-auto flex max-w-md items-center gap-3 rounded-2xl bg-stone-900 py-2.5 pl-4 pr-2.5 text-white shadow-xl ring-1 ring-white/10 dark:bg-white dark:text-stone-900"
      >
        <svg
          viewBox="0 0 24 24"
          className="size-5 shrink-0 text-accent-400 dark:text-brand-700"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
        >
          <path d="M21 12a9 9 0 1 1-3-6.7L21 8M21 3v5h-5" />
        </svg>
        <p className="flex-1 text-sm font-medium leading-snug">Une nouvelle version de l'application est disponible.</p>
        <button
          type="button"
          disabled={isReloading}
          onClick={() => {
            setReloading(true);
            onReload();
          }}
          className="min-h-11 shrink-0 rounded-xl bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
        >
          Recharger
        </button>
      </div>
    </div>
  );
}
