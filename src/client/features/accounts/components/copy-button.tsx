import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";

/** Copies text to the clipboard and says so; when the clipboard is refused, says that too. */
export function CopyButton({
  text,
  label,
  variant = "secondary",
}: {
  text: string;
  label: string;
  variant?: "secondary" | "ghost";
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <div className="flex flex-col gap-1">
      <Button variant={variant} full onClick={copy}>
        {state === "copied" ? "Copié !" : label}
      </Button>
      <p className="text-center text-sm text-stone-600 dark:text-stone-400" aria-live="polite">
        {state === "copied"
          ? "Copié dans le presse-papiers."
          : state === "failed"
            ? "Copie impossible : sélectionnez le texte et copiez-le à la main."
            : ""}
      </p>
    </div>
  );
}
