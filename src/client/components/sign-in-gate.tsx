import type { CSSProperties, ReactNode } from "react";
import { Navigate } from "react-router";
import { useMe } from "../lib/me.ts";
import { ButtonLink } from "./ui/button.tsx";

/**
 * A page that asks someone signed out to sign in or create an account, then sends them back to `redirect` (a
 * shop's code, a contest) once done; someone already signed in (back with the browser's button) goes there at once.
 */
export function SignInGate({
  redirect,
  top,
  signUpLook,
  children,
}: {
  redirect: string;
  /** What the page is about, above the two buttons. */
  top: ReactNode;
  /** The « Créer mon compte » button in the shop's colours, where there is a shop. */
  signUpLook?: { className?: string; style?: CSSProperties };
  /** Below the two buttons. */
  children?: ReactNode;
}) {
  const { data: me, isPending } = useMe();
  if (!isPending && me) return <Navigate to={redirect} replace />;
  const withRedirect = (path: string) => `${path}?redirect=${encodeURIComponent(redirect)}`;
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6 px-5 pb-10 pt-8">
      {top}
      <div className="flex flex-col gap-3">
        <ButtonLink to={withRedirect("/signup")} full {...signUpLook}>
          Créer mon compte
        </ButtonLink>
        <ButtonLink to={withRedirect("/login")} variant="secondary" full>
          J'ai déjà un compte
        </ButtonLink>
      </div>
      {children}
    </div>
  );
}
