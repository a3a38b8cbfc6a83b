import { useState } from "react";
import { Glyph } from "../../../components/loyalty/glyph.tsx";
import { QrImage } from "../../../components/qr/qr-image.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { usePersonalCode, useRenewPersonalCode } from "../api/personal-code.ts";

/**
 * « Ma carte client »: my personal code as a QR code and 8 characters. Shown at a counter, staff scan or type it
 * to credit my visit (no e-mail needed); showing it is agreeing to be credited by that shop. Opened on demand, so
 * the code is not on screen for anyone looking over a shoulder.
 */
export function MyClientCard() {
  const [isOpen, setOpen] = useState(false);
  const code = usePersonalCode(isOpen);
  const renew = useRenewPersonalCode();

  return (
    <section
      aria-label="Ma carte client"
      className="rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800"
    >
      <button
        type="button"
        onClick={() => setOpen((v) => !v)}
        aria-expanded={isOpen}
        className="flex w-full items-center gap-3 text-left"
      >
        <Glyph name="qr" className="size-8 shrink-0 text-brand-700 dark:text-brand-300" />
        <span className="flex-1">
          <span className="block text-lg font-bold">Ma carte client</span>
          <span className="block text-sm text-stone-600 dark:text-stone-400">
            Pas de code au comptoir ? Montrez ce code : l'équipe le scanne ou le saisit pour créditer votre passage.
          </span>
        </span>
        <Glyph name="chevron" className={`size-6 shrink-0 transition ${isOpen ? "rotate-90" : ""}`} />
      </button>
      {isOpen ? (
        <div className="mt-4 flex flex-col items-center gap-3">
          {code.isError ? <Notice tone="error">{code.error.message}</Notice> : null}
          {code.data ? (
            <>
              <div className="w-56 max-w-full">
                <QrImage text={code.data.qr} label="QR code de ma carte client, à faire scanner au comptoir" />
              </div>
              <p className="font-mono text-4xl font-black tracking-[0.15em]" data-testid="personal-code">
                <span aria-hidden="true">{code.data.display}</span>
                <span className="sr-only">{code.data.code.split("").join(" ")}</span>
              </p>
              {renew.isSuccess ? (
                <Notice tone="success">Nouveau code créé : l'ancien ne fonctionne plus.</Notice>
              ) : renew.isError ? (
                <Notice tone="error">{errorText(renew.error, "Le code n'a pas pu être renouvelé. Réessayez.")}</Notice>
              ) : null}
              <Button type="button" variant="secondary" isLoading={renew.isPending} onClick={() => renew.mutate()}>
                Changer de code
              </Button>
              <p className="text-center text-xs text-stone-600 dark:text-stone-400">
                Quelqu'un d'autre a vu ou photographié votre code ? Changez-le : l'ancien cesse aussitôt de fonctionner.
              </p>
            </>
          ) : code.isPending ? (
            <p className="text-sm text-stone-600 dark:text-stone-400" role="status">
              Chargement de votre code…
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
