import type { ReactNode } from "react";
import { Button } from "./button.tsx";

/**
 * A change asked twice (delete, archive, renew a key): what it will do, then the danger button and « Annuler ».
 * The caller keeps whether it is asking, and shows this in place of the button that asked.
 */
export function ConfirmBox({
  label,
  confirmLabel,
  isLoading,
  onConfirm,
  onCancel,
  className = "",
  children,
}: {
  /** The group's name for screen readers, e.g. « Supprimer « Café offert » ». */
  label: string;
  confirmLabel: string;
  isLoading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  className?: string;
  /** What the change will do, as a question. */
  children: ReactNode;
}) {
  return (
    <div
      role="group"
      aria-label={label}
      className={`rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-950 dark:border-red-900 dark:bg-red-950 dark:text-red-100 ${className}`}
    >
      {children}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="danger" isLoading={isLoading} onClick={onConfirm}>
          {confirmLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Annuler
        </Button>
      </div>
    </div>
  );
}
