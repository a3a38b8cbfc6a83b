import { useEffect, useState } from "react";

/**
 * A quiet « Enregistré » after a save (issue 25 row 14): one polite live region, always mounted so each save is
 * announced, shown as a small pill above the tab bar that slides down out of sight after a few seconds (its words
 * stay for screen readers). It slides rather than fades: a half-faded pill is pale text for a moment, which no one can
 * read (and axe rightly reports when it looks at that moment). `savedAt` changes on every successful save (a mutation's `submittedAt`, a timestamp); null hides it.
 */
export function SavedStatus({ savedAt, text = "Enregistré" }: { savedAt: number | null; text?: string }) {
  const [faded, setFaded] = useState(false);
  useEffect(() => {
    setFaded(false);
    if (savedAt === null) return;
    const timer = setTimeout(() => setFaded(true), 4000);
    return () => clearTimeout(timer);
  }, [savedAt]);
  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-[calc(env(safe-area-inset-bottom)+5.25rem)] z-40 flex justify-center"
    >
      {savedAt === null ? null : (
        <p
          key={savedAt}
          className={`rounded-full bg-stone-900 px-4 py-2 text-sm font-semibold text-white shadow-lg transition-transform duration-500 ease-in motion-reduce:transition-none dark:bg-stone-100 dark:text-stone-900 ${faded ? "translate-y-[calc(100%+7rem)]" : "translate-y-0"}`}
        >
          <span aria-hidden="true">✓ </span>
          {text}
        </p>
      )}
    </div>
  );
}
