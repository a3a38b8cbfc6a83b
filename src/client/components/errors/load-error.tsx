import { errorText } from "../../lib/api-client.ts";
import { Notice } from "../ui/notice.tsx";

/** A read that failed, where its content would be: the API's French message, and a retry when there is one. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => unknown }) {
  return (
    <div className="flex flex-col items-start gap-2">
      <Notice tone="error">{errorText(error, "Une erreur inattendue est survenue.")}</Notice>
      {onRetry ? (
        <button
          type="button"
          onClick={() => onRetry()}
          className="min-h-11 font-semibold text-brand-800 underline dark:text-brand-200"
        >
          Réessayer
        </button>
      ) : null}
    </div>
  );
}
