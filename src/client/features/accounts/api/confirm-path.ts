/**
 * The page a confirmation link lands on (?from=email: the page tells it from /confirm opened without a link),
 * carrying where to go after the profile step. The server's sign-up uses the same form (confirmCallback).
 */
export const confirmPath = (redirect: string) =>
  redirect && redirect !== "/" ? `/confirm?from=email&redirect=${encodeURIComponent(redirect)}` : "/confirm?from=email";
