import { errorText } from "../../lib/api-client.ts";
import { Button } from "./button.tsx";
import { Notice } from "./notice.tsx";
import { SavedStatus } from "./saved-status.tsx";

/** What the footer reads of a settings form's save (a TanStack mutation). */
type Save = { isError: boolean; error: unknown; isSuccess: boolean; submittedAt: number; isPending: boolean };

/** The end of a settings form: the save's French error, « Réglages enregistrés. » after it, the « Enregistrer » button. */
export function SaveFooter({ save }: { save: Save }) {
  return (
    <>
      {save.isError ? <Notice tone="error">{errorText(save.error)}</Notice> : null}
      <SavedStatus savedAt={save.isSuccess ? save.submittedAt : null} text="Réglages enregistrés." />
      <Button type="submit" isLoading={save.isPending}>
        Enregistrer
      </Button>
    </>
  );
}
