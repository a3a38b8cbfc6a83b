import { useMutation } from "@tanstack/react-query";
import { errorText } from "../../lib/api-client.ts";
import { downloadFile } from "../../lib/download-file.ts";
import { PathIcon } from "../icons.tsx";
import { Button } from "./button.tsx";

/** A button that downloads a file of the API (a CSV export, the poster) and says why when it cannot. */
export function DownloadButton({
  url,
  fallbackName,
  variant = "secondary",
  full = false,
  children,
}: {
  url: string;
  fallbackName: string;
  variant?: "primary" | "secondary";
  /** As wide as its column (otherwise at the end of the row on a wide screen). */
  full?: boolean;
  children: React.ReactNode;
}) {
  const download = useMutation({ mutationFn: () => downloadFile(url, fallbackName) });
  return (
    <div className={`flex flex-col items-stretch gap-2 ${full ? "" : "sm:items-end"}`}>
      <Button variant={variant} isLoading={download.isPending} onClick={() => download.mutate()}>
        <PathIcon d="M12 3v12M7 10l5 5 5-5M4 20h16" className="size-5" />
        {children}
      </Button>
      {download.isError ? (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {errorText(download.error, "Le téléchargement a échoué. Réessayez.")}
        </p>
      ) : null}
    </div>
  );
}
