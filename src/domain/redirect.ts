/**
 * A path of this site, or null: "/x" yes; "//evil", "/\\evil", "https://evil", "javascript:", control characters no.
 * Browsers read "//host" and "/\\host" as another site (the WHATWG URL parser turns "\\" into "/"), so a path that
 * is only checked to start with "/" leads off-site (issue 22, row 11). The one rule for every "in-app" target: the
 * redirect after sign-in, a message's link (API schema and the page that follows it).
 */
export function sameOriginPath(target: string | null | undefined): string | null {
  if (!target || typeof target !== "string") return null;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return null;
  if (/[\u0000-\u001f\u007f]/.test(target)) return null;
  try {
    const url = new URL(target, "http://x.invalid");
    if (url.origin !== "http://x.invalid") return null;
    return url.pathname + url.search + url.hash;
  } catch {
    return null;
  }
}

/** A `redirect` target after sign-in is followed only when it is a path of this site (sameOriginPath). */
export function safeRedirect(target: string | null | undefined, fallback = "/"): string {
  return sameOriginPath(target) ?? fallback;
}
