import { createPortal } from "react-dom";

/** The overlay's content (see mobile-only-overlay.tsx for when it shows). */
export default function MobileOnlyOverlayView() {
  return createPortal(
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby="mobile-only-title"
      aria-describedby="mobile-only-text"
      className="fixed inset-0 z-[100] flex items-center justify-center bg-gradient-to-br from-brand-700 via-brand-800 to-brand-900 p-8 text-white"
    >
      <div className="flex max-w-xl flex-col items-center text-center">
        <div
          className="relative mb-10 h-56 w-32 rounded-[2rem] border-4 border-white/80 bg-white/10 shadow-2xl"
          aria-hidden="true"
        >
          <div className="absolute left-1/2 top-3 h-1.5 w-10 -translate-x-1/2 rounded-full bg-white/60" />
          <img
            src="/favicon.svg"
            alt=""
            className="absolute left-1/2 top-1/2 size-16 -translate-x-1/2 -translate-y-1/2 rounded-2xl"
          />
        </div>
        <h2 id="mobile-only-title" className="text-4xl font-black tracking-tight">
          Site uniquement disponible sur mobile
        </h2>
        <p id="mobile-only-text" className="mt-4 text-xl text-brand-50">
          Veuillez consulter ce site depuis votre téléphone portable.
        </p>
        <p className="mt-8 rounded-full bg-white/10 px-5 py-2 text-base text-white">
          Ouvrez <span className="font-semibold">{window.location.host}</span> dans le navigateur de votre téléphone.
        </p>
      </div>
    </div>,
    document.body,
  );
}
