import { applePassHref, googleSaveHref, useWalletStatus } from "../api/wallet.ts";

/** The phone's own wallet: Apple's on iPhone, iPad and Mac, Google's on Android; elsewhere, both are offered. */
type WalletPlatform = "apple" | "google" | "any";

export function walletPlatform(userAgent: string): WalletPlatform {
  if (/Android/i.test(userAgent)) return "google";
  // iPadOS Safari says "Macintosh"; a Mac's Safari adds the pass to the iPhone's Wallet.
  if (/iPhone|iPad|iPod|Macintosh/i.test(userAgent)) return "apple";
  return "any";
}

const BADGE =
  "inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-black px-4 py-2 text-sm font-semibold text-white shadow-sm ring-1 ring-white/20 hover:bg-stone-800 focus-visible:outline-offset-2";

/** A wallet card, as the badges draw it. */
function WalletGlyph() {
  return (
    <svg
      viewBox="0 0 24 24"
      className="size-5 shrink-0"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <rect x="3" y="5" width="18" height="14" rx="3" />
      <path d="M3 10h18M16 14h2" strokeLinecap="round" />
    </svg>
  );
}

/**
 * « Ajouter à Apple Wallet » / « Ajouter à Google Wallet » for one card (issue 26): the phone's own wallet only (both
 * on a computer), nothing at all when the instance offers neither. The Apple link downloads the signed pass, which
 * Safari opens in Wallet; the Google one goes to Google's save page.
 */
export function WalletButtons({ cardId, shopName }: { cardId: string; shopName: string }) {
  const status = useWalletStatus();
  if (!status.data) return null;
  const platform = walletPlatform(typeof navigator === "undefined" ? "" : navigator.userAgent);
  const apple = status.data.apple && platform !== "google";
  const google = status.data.google && platform !== "apple";
  if (!apple && !google) return null;
  return (
    <div className="flex flex-wrap gap-2" data-testid="wallet-buttons">
      {apple ? (
        <a href={applePassHref(cardId)} className={BADGE}>
          <WalletGlyph />
          Ajouter à Apple Wallet<span className="sr-only"> : carte {shopName}</span>
        </a>
      ) : null}
      {google ? (
        <a href={googleSaveHref(cardId)} className={BADGE}>
          <WalletGlyph />
          Ajouter à Google Wallet<span className="sr-only"> : carte {shopName}</span>
        </a>
      ) : null}
    </div>
  );
}

/** Whether this instance offers no phone wallet at all (known once the status is read; unknown: false). */
export function useNoWallet(): boolean {
  const status = useWalletStatus();
  return status.data !== undefined && !status.data.apple && !status.data.google;
}
