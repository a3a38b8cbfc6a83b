/** The install card's content (see install-prompt.tsx for when it shows). */
export default function InstallCard({ onInstall, onDismiss }: { onInstall: () => void; onDismiss: () => void }) {
  return (
    <section
      aria-labelledby="install-title"
      className="fixed inset-x-3 bottom-[calc(env(safe-area-inset-bottom)+5.25rem)] z-[70] mx-auto max-w-md rounded-2xl border border-stone-200 bg-white p-4 shadow-xl dark:border-stone-700 dark:bg-stone-900"
    >
      <div className="flex items-start gap-3">
        <img src="/pwa-192x192.png" alt="" width={48} height={48} className="size-12 shrink-0 rounded-xl" />
        <div className="min-w-0 flex-1">
          <h2 id="install-title" className="text-base font-semibold">
            Installer Fidèle
          </h2>
          <p className="mt-0.5 text-sm text-stone-600 dark:text-stone-400">
            Ajoutez Fidèle à votre écran d'accueil pour retrouver vos cartes en un geste.
          </p>
        </div>
      </div>
      <div className="mt-3 flex justify-end gap-2">
        <button
          type="button"
          onClick={onDismiss}
          className="min-h-11 rounded-xl px-4 text-sm font-semibold text-stone-700 hover:bg-stone-100 dark:text-stone-300 dark:hover:bg-stone-800"
        >
          Non merci
        </button>
        <button
          type="button"
          onClick={onInstall}
          className="min-h-11 rounded-xl bg-brand-700 px-5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800"
        >
          Installer
        </button>
      </div>
    </section>
  );
}
