import { useState } from "react";
import { Button } from "./button.tsx";
import { ApiError } from "../../lib/api-client.ts";
import { downloadFile } from "../../lib/download-file.ts";
import { PathIcon } from "../icons.tsx";

/** A button that downloads a file of the API (a CSV export) and says why when it cannot. */
export function DownloadButton({
  url,
  fallbackName,
  children,
}: {
  url: string;
  fallbackName: string;
  children: React.ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex flex-col items-stretch gap-2 sm:items-end">
      <Button
        variant="secondary"
        isLoading={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            await downloadFile(url, fallbackName);
          } catch (err) {
            setError(err instanceof ApiError ? err.message : "Le téléchargement a échoué. Réessayez.");
          } finally {
            setBusy(false);
          }
        }}
      >
        <PathIcon d="M12 3v12M7 10l5 5 5-5M4 20h16" className="size-5" />
        {children}
      </Button>
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
