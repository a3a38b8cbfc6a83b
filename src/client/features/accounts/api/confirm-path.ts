/** The page a confirmation link lands on, carrying where to go after the profile step. */
export const confirmPath = (redirect: string) =>
  redirect && redirect !== "/" ? `/confirm?redirect=${encodeURIComponent(redirect)}` : "/confirm";
