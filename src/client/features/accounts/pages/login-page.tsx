import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { safeRedirect } from "../../../../domain/redirect.ts";
import { homeAfterSignIn } from "../../../../domain/routes.ts";
import { Button } from "../../../components/ui/button.tsx";
import { EmailField, Field } from "../../../components/ui/field.tsx";
import { CurrentPasswordField } from "../components/password-fields.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Page } from "../../../components/ui/page.tsx";
import { authClient, type SignInResult } from "../../../lib/auth-client.ts";
import { getMe, type Me, meQueryOptions, useMe } from "../../../lib/me.ts";
import { useForm } from "../../../lib/use-form.ts";
import { signInWithPassword } from "../api/sign-in.ts";
import { viewerOf } from "../../../lib/viewer.ts";
import { useForgetSignedOutAccount } from "../api/forget-signed-out.ts";
import { Form } from "../../../components/ui/form.tsx";
import { OtherWayLink } from "../components/other-way-link.tsx";

// Only for someone already signed in: a visitor's /login never downloads the sign-out.
const AlreadySignedIn = lazy(() => import("../components/already-signed-in.tsx"));

// zod and these schemas (24 kB gzip) are not part of the page's download: checking a form needs them only when it is
// sent. They are fetched as soon as a form is touched (focus or tap), and awaited on submit.
const loadSchemas = () => import("../login-schemas.ts");
const passwordLoginSchema = () => loadSchemas().then((m) => m.passwordLoginSchema);
const codeRequestSchema = () => loadSchemas().then((m) => m.codeRequestSchema);
const codeSchema = () => loadSchemas().then((m) => m.codeSchema);
const totpSchema = () => loadSchemas().then((m) => m.totpSchema);

type Step =
  | { kind: "password" }
  | { kind: "code-request"; email: string }
  | { kind: "code"; email: string }
  | { kind: "totp" };

export default function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const location = useLocation();
  useForgetSignedOutAccount();
  // The schemas download while the person types (a focus or a tap on the page), long before they are needed.
  useEffect(() => {
    const warm = () => void loadSchemas();
    document.addEventListener("focusin", warm, { once: true });
    document.addEventListener("pointerdown", warm, { once: true });
    return () => {
      document.removeEventListener("focusin", warm);
      document.removeEventListener("pointerdown", warm);
    };
  }, []);
  const [step, setStep] = useState<Step>({ kind: "password" });
  const passwordFormRef = useRef<HTMLFormElement>(null);
  /** To the code sign-in, keeping the address already typed. */
  const toCodeRequest = () => {
    const typed = passwordFormRef.current ? new FormData(passwordFormRef.current).get("email") : null;
    setStep({ kind: "code-request", email: typeof typed === "string" ? typed : (params.get("email") ?? "") });
  };
  const [codeResent, setCodeResent] = useState(false);
  const redirect = safeRedirect(params.get("redirect"));
  // No page asked for: an owner lands on the back office, not the shopper home (issue 25 row 16).
  const landingFor = (me: Me | null) => (params.get("redirect") ? redirect : homeAfterSignIn(viewerOf(me)));
  const signedIn = useMe();
  const [isSigningIn, setSigningIn] = useState(false);
  // Set by the page that sent us here (e.g. "password changed, sign in with the new one").
  const notice = (location.state as { notice?: string } | null)?.notice;

  const finish = async (result?: SignInResult) => {
    if (result?.twoFactorRedirect) {
      setStep({ kind: "totp" });
      return;
    }
    // Nothing cached for a previous account may show under this one.
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meQueryOptions().queryKey[0] });
    setSigningIn(true);
    const me = await queryClient.fetchQuery({ ...meQueryOptions(), queryFn: getMe, staleTime: 0 });
    const landing = landingFor(me);
    const target = me && !me.profile.isComplete ? `/create-profil?redirect=${encodeURIComponent(landing)}` : landing;
    navigate(target, { replace: true });
  };

  const passwordForm = useForm(passwordLoginSchema, async ({ email, password }) =>
    finish(await signInWithPassword(email, password, redirect)),
  );
  const codeRequestForm = useForm(codeRequestSchema, async ({ email }) => {
    await authClient.sendSignInCode(email);
    setCodeResent(false);
    setStep({ kind: "code", email });
  });
  const resendCode = useForm(codeRequestSchema, async ({ email }) => {
    await authClient.sendSignInCode(email);
    setCodeResent(true);
  });
  const codeForm = useForm(codeSchema, async ({ code }) => {
    if (step.kind !== "code") return;
    await finish(await authClient.signInWithCode(step.email, code));
  });
  const totpForm = useForm(totpSchema, async ({ code }) => {
    const clean = code.replace(/\s/g, "");
    await (/^\d{6}$/.test(clean) ? authClient.verifyTotp(clean) : authClient.verifyBackupCode(clean));
    await finish();
  });

  // Opened while signed in (not in the middle of signing in here): say so, with a way on and a way out.
  if (signedIn.data && !isSigningIn && step.kind === "password") {
    return (
      // Nothing while its few lines load: a title alone would say the page is there before its account is.
      <Suspense fallback={null}>
        <AlreadySignedIn me={signedIn.data} to={landingFor(signedIn.data)} />
      </Suspense>
    );
  }

  if (step.kind === "totp") {
    return (
      <Page
        title="Double authentification"
        lead="Saisissez le code à 6 chiffres affiché par votre application d'authentification."
      >
        <Form form={totpForm} submit="Vérifier">
          <Field
            label="Code de vérification"
            name="code"
            autoComplete="one-time-code"
            autoCapitalize="none"
            autoFocus
            hint="Téléphone perdu ? Saisissez plutôt l'un de vos codes de secours (par exemple AbC12-dEf34)."
            error={totpForm.fieldErrors.code}
          />
        </Form>
        <Button variant="ghost" onClick={() => setStep({ kind: "password" })}>
          Annuler
        </Button>
      </Page>
    );
  }

  if (step.kind === "code-request" || step.kind === "code") {
    return (
      <Page title="Connexion par code" lead="Recevez un code à usage unique par e-mail, sans mot de passe.">
        {step.kind === "code-request" ? (
          <Form form={codeRequestForm} submit="Recevoir un code">
            <EmailField defaultValue={step.email} error={codeRequestForm.fieldErrors.email} />
          </Form>
        ) : (
          <form onSubmit={codeForm.handleSubmit} className="flex flex-col gap-4" noValidate>
            <Notice tone="info">
              {codeResent
                ? "Un nouveau code a été envoyé"
                : "Si un compte existe pour cette adresse, un code vient de lui être envoyé"}{" "}
              à <strong className="break-all">{step.email}</strong>. Il est valable 5 minutes.
            </Notice>
            {codeForm.formError ? <Notice tone="error">{codeForm.formError}</Notice> : null}
            {resendCode.formError ? <Notice tone="error">{resendCode.formError}</Notice> : null}
            <Field
              label="Code reçu par e-mail"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              autoFocus
              error={codeForm.fieldErrors.code}
            />
            <Button type="submit" full isLoading={codeForm.isSubmitting}>
              Se connecter
            </Button>
          </form>
        )}
        {step.kind === "code" ? (
          <form onSubmit={resendCode.handleSubmit} noValidate>
            <input type="hidden" name="email" value={step.email} />
            <Button type="submit" variant="secondary" full isLoading={resendCode.isSubmitting}>
              Renvoyer un code
            </Button>
          </form>
        ) : null}
        <Button variant="ghost" onClick={() => setStep({ kind: "password" })}>
          Se connecter avec un mot de passe
        </Button>
      </Page>
    );
  }

  return (
    <Page title="Connexion" lead="Retrouvez vos cartes de fidélité et vos récompenses.">
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      <Form ref={passwordFormRef} form={passwordForm} submit="Se connecter">
        <EmailField defaultValue={params.get("email") ?? ""} error={passwordForm.fieldErrors.email} />
        <CurrentPasswordField error={passwordForm.fieldErrors.password} />
        <Link
          to="/mot-de-passe-perdu"
          className="self-end text-sm font-medium text-brand-800 underline dark:text-brand-200"
        >
          Mot de passe oublié ?
        </Link>
      </Form>
      <Button variant="secondary" full onClick={toCodeRequest}>
        Recevoir un code par e-mail
      </Button>
      <OtherWayLink
        question="Pas encore de compte ?"
        to={`/signup${params.get("redirect") ? `?redirect=${encodeURIComponent(redirect)}` : ""}`}
        label="Créer un compte"
      />
    </Page>
  );
}
