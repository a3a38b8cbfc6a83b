import { Link } from "react-router";
import { buttonClass } from "../ui/button.tsx";

/** The one error screen: 403, 404 and others, in the app's style, with a way home. */
export function ErrorView({ status, title, message }: { status: number; title: string; message: string }) {
  return (
    <div className="mx-auto flex min-h-[70vh] max-w-md flex-col items-center justify-center gap-4 px-6 text-center">
      <p className="text-6xl font-black text-brand-700 dark:text-brand-200" aria-hidden="true">
        {status}
      </p>
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="text-stone-700 dark:text-stone-300">{message}</p>
      <Link to="/" className={buttonClass("primary")}>
        Retour à l'accueil
      </Link>
    </div>
  );
}

export function ForbiddenView() {
  return (
    <ErrorView
      status={403}
      title="Accès refusé"
      message="Cette page est réservée à d'autres comptes (boutique, équipe ou administration de la plateforme). Si vous pensez que c'est une erreur, contactez la boutique."
    />
  );
}
