import { useId, useRef, useState } from "react";
import { formatKilobytes } from "../../../domain/format.ts";
import { dataUrlBytes, resizeImage } from "./resize-image.ts";

const FRAMES = {
  round: "size-20 rounded-full",
  wide: "aspect-[16/9] w-40 rounded-xl",
  photo: "aspect-[4/3] w-32 rounded-xl",
} as const;

/**
 * A picture chosen from the phone (or taken with its camera), resized here, shown
 * as a preview, with "Remplacer" and "Enlever". Its value is a data URL or null.
 * The one image input of the app: a shop's logo (round, made square), its cover (wide), a reward's photo.
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
  shape: keyof typeof FRAMES;
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
          className={`flex shrink-0 items-center justify-center overflow-hidden border border-stone-200 bg-stone-100 dark:border-stone-700 dark:bg-stone-800 ${FRAMES[shape]}`}
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
            className="inline-flex min-h-11 cursor-pointer items-center rounded-xl border border-stone-300 bg-white px-4 text-sm font-semibold text-stone-900 hover:bg-stone-100 has-[:focus-visible]:outline-2 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
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
              Enlever<span className="sr-only"> : {label}</span>
            </button>
          ) : null}
        </div>
      </div>
      <p id={`${id}-hint`} className="text-sm text-stone-600 dark:text-stone-400">
        {hint} {value ? `(${formatKilobytes(dataUrlBytes(value))} après réduction)` : ""}
      </p>
      {shown ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {shown}
        </p>
      ) : null}
    </div>
  );
}
