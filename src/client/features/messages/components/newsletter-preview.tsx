import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { NewsletterContent } from "../../../../domain/messages/newsletter-blocks.ts";
import { previewQueryOptions } from "../api/newsletter.ts";
import { LoadError } from "../../../components/errors/load-error.tsx";

const WIDTHS = { phone: 375, desktop: 700 } as const;
type Width = keyof typeof WIDTHS;

/**
 * The e-mail as the owner would receive it, rendered by the server (the same MJML as the
 * real send), in a sandboxed frame at a phone's width or a computer's; then its text version.
 */
export function NewsletterPreview({ shopId, content }: { shopId: string; content: NewsletterContent | null }) {
  const [width, setWidth] = useState<Width>("phone");
  const preview = useQuery({
    ...previewQueryOptions(shopId, content ?? { subject: "", preheader: "", blocks: [] }),
    enabled: content !== null,
    placeholderData: keepPreviousData,
  });
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Aperçu</h2>
        <div
          role="group"
          aria-label="Largeur de l'aperçu"
          className="flex gap-1 rounded-xl bg-stone-100 p-1 dark:bg-stone-800"
        >
          {(["phone", "desktop"] as const).map((w) => (
            <button
              key={w}
              type="button"
              aria-pressed={width === w}
              onClick={() => setWidth(w)}
              className={`min-h-10 rounded-lg px-3 text-sm font-semibold ${width === w ? "bg-white text-brand-900 shadow-sm dark:bg-stone-900 dark:text-brand-100" : "text-stone-700 dark:text-stone-300"}`}
            >
              {w === "phone" ? "Téléphone" : "Ordinateur"}
            </button>
          ))}
        </div>
      </div>
      {content === null ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Donnez un objet à l'e-mail et ajoutez un bloc pour voir l'aperçu.
        </p>
      ) : preview.error ? (
        <LoadError error={preview.error} />
      ) : preview.data ? (
        <>
          <div className="rounded-xl bg-stone-100 p-3 text-sm dark:bg-stone-800">
            <p className="font-semibold" data-testid="preview-subject">
              {preview.data.subject}
            </p>
            {preview.data.preheader ? (
              <p className="text-stone-600 dark:text-stone-400">{preview.data.preheader}</p>
            ) : null}
          </div>
          {/* Wider than a phone at the computer's width: scrolls sideways, by keyboard too. */}
          <div
            className="overflow-x-auto rounded-xl border border-stone-200 dark:border-stone-800"
            data-testid="preview-frame"
            role="region"
            aria-label="Aperçu défilant"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the keyboard (axe scrollable-region-focusable)
            tabIndex={0}
          >
            <iframe
              title={`Aperçu de l'e-mail sur ${width === "phone" ? "un téléphone" : "un ordinateur"}`}
              srcDoc={preview.data.html}
              // Its own opaque origin and no scripts: the e-mail's HTML never touches the back-office's
              // session or DOM; its links still open, in a new tab, outside the sandbox.
              sandbox="allow-popups allow-popups-to-escape-sandbox"
              style={{ width: width === "phone" ? `min(100%, ${WIDTHS.phone}px)` : `${WIDTHS.desktop}px` }}
              className="mx-auto block h-[36rem] bg-white"
              data-width={width}
            />
          </div>
          <details className="rounded-xl border border-stone-200 p-3 dark:border-stone-800">
            <summary className="cursor-pointer font-semibold">Version texte</summary>
            <pre className="mt-2 whitespace-pre-wrap break-words text-sm">{preview.data.text}</pre>
          </details>
        </>
      ) : (
        <p className="text-sm">Préparation de l'aperçu…</p>
      )}
    </div>
  );
}
