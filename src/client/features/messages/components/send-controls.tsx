import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";

type SendAction = "pause" | "resume" | "cancel";

/**
 * What an owner can do to a send, the same for messages and newsletters: pause one going out, resume a paused one,
 * cancel one scheduled or paused; the refusal, if any, below.
 */
export function SendControls({
  status,
  pending,
  error,
  onAction,
}: {
  status: string;
  pending: boolean;
  error: Error | null;
  onAction: (action: SendAction) => void;
}) {
  return (
    <>
      <div className="mt-3 flex flex-wrap gap-2">
        {status === "sending" ? (
          <Button variant="secondary" isLoading={pending} onClick={() => onAction("pause")}>
            Mettre en pause
          </Button>
        ) : null}
        {status === "paused" ? (
          <Button variant="secondary" isLoading={pending} onClick={() => onAction("resume")}>
            Reprendre l'envoi
          </Button>
        ) : null}
        {status === "scheduled" || status === "paused" ? (
          <Button variant="danger" isLoading={pending} onClick={() => onAction("cancel")}>
            Annuler l'envoi
          </Button>
        ) : null}
      </div>
      {error ? <Notice tone="error">{error.message}</Notice> : null}
    </>
  );
}
