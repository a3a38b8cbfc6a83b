/**
 * A `redirect` target after sign-in is followed only when it is a path of this site:
 * "/x" yes; "//evil", "/\\evil", "https://evil", "javascript:" no.
 */
export function safeRedirect(target: string | null | undefined, fallback = "/"): string {
  if (!target || typeof target !== "string") return fallback;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f]/.test(target)) return fallback;
  try {
    const url = new URL(target, "http://x.invalid");
    if (url.origin !== "http://x.invalid") return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
