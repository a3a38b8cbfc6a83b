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
 * Shrinks a picture in the browser (a canvas) until its data URL fits `maxBytes`:
 * WebP first (keeps a logo's transparency), JPEG where WebP is not drawn; smaller
 * quality, then smaller size. The API stores images as data URLs within a limit.
 */
export async function resizeImage(
  file: File,
  opts: { maxWidth: number; maxHeight: number; maxBytes: number; square?: boolean },
): Promise<string> {
  const image = await loadImage(file);
  let scale = Math.min(1, opts.maxWidth / image.naturalWidth, opts.maxHeight / image.naturalHeight);
  for (let attempt = 0; attempt < 6; attempt++) {
    const canvas = document.createElement("canvas");
    let sx = 0;
    let sy = 0;
    let sw = image.naturalWidth;
    let sh = image.naturalHeight;
    if (opts.square) {
      // A logo is shown in a circle: keep the centred square.
      const side = Math.min(sw, sh);
      sx = (sw - side) / 2;
      sy = (sh - side) / 2;
      sw = side;
      sh = side;
      scale = Math.min(1, opts.maxWidth / side) * 0.8 ** attempt;
    }
    canvas.width = Math.max(1, Math.round(sw * scale));
    canvas.height = Math.max(1, Math.round(sh * scale));
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no canvas");
    ctx.drawImage(image, sx, sy, sw, sh, 0, 0, canvas.width, canvas.height);
    for (const quality of [0.86, 0.75, 0.62]) {
      let url = canvas.toDataURL("image/webp", quality);
      if (!url.startsWith("data:image/webp")) url = canvas.toDataURL("image/jpeg", quality);
      if (dataUrlBytes(url) <= opts.maxBytes) return url;
    }
    if (!opts.square) scale *= 0.8;
  }
  throw new Error("too large");
}

/**
 * A picture chosen from the phone (or taken with its camera), resized here, shown
 * as a preview, with "Remplacer" and "Retirer". Its value is a data URL or null.
 */
export function ImageInput({
  label,
  hint,
  value,
  onChange,
  maxBytes,
  maxWidth,
  maxHeight,
  shape,
  error,
}: {
  label: string;
  hint: string;
  value: string | null;
  onChange: (value: string | null) => void;
  maxBytes: number;
  maxWidth: number;
  maxHeight: number;
  shape: "round" | "wide";
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
      onChange(await resizeImage(file, { maxWidth, maxHeight, maxBytes, square: shape === "round" }));
    } catch {
      setProblem("Cette image n'a pas pu être lue. Essayez une autre photo (PNG, JPEG ou WebP).");
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <span id={`${id}-label`} className="text-sm font-medium text-stone-800 dark:text-stone-200">
        {label}
      </span>
      <div className="flex items-center gap-4">
        <div
          className={`flex shrink-0 items-center justify-center overflow-hidden border border-stone-200 bg-stone-100 dark:border-stone-700 dark:bg-stone-800 ${
            shape === "round" ? "size-20 rounded-full" : "aspect-[16/9] w-40 rounded-xl"
          }`}
        >
          {value ? (
            <img src={value} alt={`${label} : aperçu`} className="size-full object-cover" />
          ) : (
            <span className="px-2 text-center text-xs text-stone-600 dark:text-stone-400">Aucune image</span>
          )}
        </div>
        <div className="flex flex-col items-start gap-1">
          <label
            htmlFor={id}
            className="inline-flex min-h-11 cursor-pointer items-center rounded-xl border border-stone-300 bg-white px-4 text-sm font-semibold text-stone-900 hover:bg-stone-100 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
          >
            {busy ? "Préparation…" : value ? "Remplacer" : "Choisir une image"}
            <span className="sr-only"> : {label}</span>
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
              Retirer<span className="sr-only"> : {label}</span>
            </button>
          ) : null}
        </div>
      </div>
      <p id={`${id}-hint`} className="text-sm text-stone-600 dark:text-stone-400">
        {hint} {value ? `(${kb.format(dataUrlBytes(value) / 1024)} Ko après réduction)` : ""}
      </p>
      {shown ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {shown}
        </p>
      ) : null}
    </div>
  );
}
