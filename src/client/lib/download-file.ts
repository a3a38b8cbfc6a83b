import { ApiError } from "./api-client.ts";
import { AppError, isErrorBody } from "../../domain/errors.ts";

/**
 * Downloads a file the API sends as an attachment (CSV exports, the poster), under
 * the name the server gives; an error answer becomes an ApiError with its French message.
 */
export async function downloadFile(url: string, fallbackName: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: "same-origin" });
  } catch {
    throw new ApiError(0, { code: "INTERNAL", message: "Connexion impossible. Vérifiez votre réseau et réessayez." });
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    throw new ApiError(response.status, isErrorBody(body) ? body : new AppError("INTERNAL").toJSON());
  }
  const disposition = response.headers.get("content-disposition") ?? "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the blob goes away.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

const enc = encodeURIComponent;

export const backofficeFileUrl = (
  shopId: string,
  file: "customers.csv" | "scans.csv" | "poster.pdf",
  query: Record<string, string> = {},
) => {
  const search = new URLSearchParams(query).toString();
  return `/api/backoffice/shops/${enc(shopId)}/${file}${search ? `?${search}` : ""}`;
};
