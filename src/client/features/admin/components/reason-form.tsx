import { type UseMutationResult, useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { adminKeys } from "../api/keys.ts";

/** After any action on a row of the console, every list of the console is read again. */
export function useRefreshConsole() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: adminKeys.all() });
}

type ReasonAction = {
  isAsking: boolean;
  ask: () => void;
  cancel: () => void;
  reason: string;
  setReason: (reason: string) => void;
  call: UseMutationResult<unknown, Error, void>;
};

/**
 * A platform action that needs a reason (suspending a shop, banning an account): whether it is being asked, the
 * reason typed, and the call with it; once done, the form closes and the console's lists are read again.
 */
export function useReasonAction(run: (reason: string) => Promise<unknown>): ReasonAction {
  const refresh = useRefreshConsole();
  const [reason, setReason] = useState("");
  const [isAsking, setAsking] = useState(false);
  const call = useMutation({
    mutationFn: () => run(reason),
    onSuccess: () => {
      setAsking(false);
      setReason("");
      return refresh();
    },
  });
  return { isAsking, ask: () => setAsking(true), cancel: () => setAsking(false), reason, setReason, call };
}

/** The reason of a platform action (useReasonAction), then confirm or cancel; nothing while it is not asked. */
export function ReasonForm({ action, label, confirm }: { action: ReasonAction; label: string; confirm: string }) {
  if (!action.isAsking) return null;
  return (
    <form
      className="mt-3 flex flex-col gap-2"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        action.call.mutate();
      }}
    >
      <Field
        label={label}
        value={action.reason}
        onChange={(e) => action.setReason(e.target.value)}
        required
        minLength={3}
        maxLength={300}
      />
      <div className="flex gap-2">
        <Button type="submit" isLoading={action.call.isPending}>
          {confirm}
        </Button>
        <Button variant="secondary" onClick={action.cancel}>
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
      {errorText(error, "L'action a échoué.")}
    </p>
  );
}
