import { useId, useRef, useState } from "react";

const kb = new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 0 });

/** Bytes held by a base64 data URL. */
export function dataUrlBytes(url: string): number {
  const b64 = url.slice(url.indexOf(",") + 1);
  return Math.floor((b64.length * 3) / 4) - (b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0);
}

function loadImage(file: File): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      URL.revokeObjectURL(url);
      resolve(image);
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error("unreadable image"));
    };
    image.src = url;
  });
}

/**
 * Shrinks a photo in the browser (a canvas) until its data URL fits `maxBytes`: WebP first, JPEG where WebP is not
 * drawn; lower quality, then smaller size. The API stores a reward's photo as a data URL of 400 Ko at most.
 * (The same approach as the back-office's logo input, which this feature may not import: CONVENTIONS 7.)
 */
async function resizePhoto(file: File, maxSide: number, maxBytes: number): Promise<string> {
  const image = await loadImage(file);
  let scale = Math.min(1, maxSide / Math.max(image.naturalWidth, image.naturalHeight));
  for (let attempt = 0; attempt < 6; attempt++) {
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(image.naturalWidth * scale));
    canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no canvas");
    ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
    for (const quality of [0.86, 0.75, 0.62]) {
      let url = canvas.toDataURL("image/webp", quality);
      if (!url.startsWith("data:image/webp")) url = canvas.toDataURL("image/jpeg", quality);
      if (dataUrlBytes(url) <= maxBytes) return url;
    }
    scale *= 0.8;
  }
  throw new Error("too large");
}

/**
 * The reward's photo: chosen from the phone (or taken with its camera), resized here, previewed, with "Remplacer"
 * and "Retirer". Its value is a data URL or null.
 */
export function PhotoInput({
  value,
  onChange,
  maxBytes,
  error,
}: {
  value: string | null;
  onChange: (value: string | null) => void;
  maxBytes: number;
  error?: string;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const shown = problem ?? error;

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    if (!/^image\//.test(file.type)) {
      setProblem("Choisissez une image (PNG, JPEG ou WebP).");
      return;
    }
    setBusy(true);
    try {
      onChange(await resizePhoto(file, 1200, maxBytes));
    } catch {
      setProblem("Cette photo n'a pas pu être lue. Essayez une autre image (PNG, JPEG ou WebP).");
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <span className="text-sm font-medium text-stone-800 dark:text-stone-200">Photo (facultative)</span>
      <div className="flex items-center gap-4">
        <div className="flex aspect-[4/3] w-32 shrink-0 items-center justify-center overflow-hidden rounded-xl border border-stone-200 bg-stone-100 dark:border-stone-700 dark:bg-stone-800">
          {value ? (
            <img src={value} alt="Aperçu de la récompense" className="size-full object-cover" />
          ) : (
            <span className="px-2 text-center text-xs text-stone-600 dark:text-stone-400">Aucune photo</span>
          )}
        </div>
        <div className="flex flex-col items-start gap-1">
          <label
            htmlFor={id}
            className="inline-flex min-h-11 cursor-pointer items-center rounded-xl border border-stone-300 bg-white px-4 text-sm font-semibold text-stone-900 hover:bg-stone-100 has-[:focus-visible]:outline-2 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
          >
            {busy ? "Préparation…" : value ? "Remplacer" : "Choisir une photo"}
            <span className="sr-only"> de la récompense</span>
          </label>
          <input
            ref={input}
            id={id}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            className="sr-only"
            aria-describedby={`${id}-hint${shown ? ` ${id}-error` : ""}`}
            onChange={(e) => pick(e.target.files?.[0])}
          />
          {value ? (
            <button
              type="button"
              onClick={() => onChange(null)}
              className="min-h-10 text-sm font-semibold text-red-700 underline dark:text-red-400"
            >
              Retirer<span className="sr-only"> la photo</span>
            </button>
          ) : null}
        </div>
      </div>
      <p id={`${id}-hint`} className="text-sm text-stone-600 dark:text-stone-400">
        Réduite ici à {kb.format(maxBytes / 1024)} Ko au plus.{" "}
        {value ? `(${kb.format(dataUrlBytes(value) / 1024)} Ko après réduction)` : ""}
      </p>
      {shown ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {shown}
        </p>
      ) : null}
    </div>
  );
}
