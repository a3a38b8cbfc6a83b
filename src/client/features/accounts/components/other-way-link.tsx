import { Link } from "react-router";

/** Under an account form, the other way in: « Déjà un compte ? Se connecter », « Pas encore de compte ? … ». */
export function OtherWayLink({ question, to, label }: { question: string; to: string; label: string }) {
  return (
    <p className="text-center text-sm text-stone-700 dark:text-stone-300">
      {question}{" "}
      <Link to={to} className="font-semibold text-brand-800 underline dark:text-brand-200">
        {label}
      </Link>
    </p>
  );
}
