import type { FormEvent } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { ApiError } from "../../../lib/api-client.ts";

/** A platform action that needs a reason (suspending a shop, banning an account): the reason, confirm or cancel. */
export function ReasonForm({
  label,
  confirm,
  reason,
  onReason,
  onSubmit,
  onCancel,
  isPending,
}: {
  label: string;
  confirm: string;
  reason: string;
  onReason: (reason: string) => void;
  onSubmit: () => void;
  onCancel: () => void;
  isPending: boolean;
}) {
  return (
    <form
      className="mt-3 flex flex-col gap-2"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <Field
        label={label}
        value={reason}
        onChange={(e) => onReason(e.target.value)}
        required
        minLength={3}
        maxLength={300}
      />
      <div className="flex gap-2">
        <Button type="submit" isLoading={isPending}>
          {confirm}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Annuler
        </Button>
      </div>
    </form>
  );
}

/** The French message of a failed action, under the row it belongs to. */
export function ActionError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">
      {error instanceof ApiError ? error.message : "L'action a échoué."}
    </p>
  );
}
