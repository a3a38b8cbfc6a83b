import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { meQueryOptions } from "../../../lib/me.ts";

/** What the thank-you is for: a page that sends people here says so with ?sujet=. */
const SUBJECTS = {
  inscription: {
    title: "Merci pour votre inscription !",
    text: "Votre compte est prêt. Au prochain passage dans une boutique Fidèle, scannez son code pour ouvrir votre carte.",
  },
  boutique: {
    title: "Merci d'avoir rejoint Fidèle !",
    text: "Votre boutique est enregistrée. Affichez votre code au comptoir : vos clients peuvent scanner dès aujourd'hui.",
  },
  avis: {
    title: "Merci pour votre avis !",
    text: "Votre avis aide la boutique à s'améliorer et les autres clients à la découvrir.",
  },
  jeu: {
    title: "Merci pour votre participation !",
    text: "Votre participation est enregistrée. Le règlement du jeu précise quand et comment les gagnants sont désignés.",
  },
} as const;

const DEFAULT = {
  title: "Merci !",
  text: "C'est bien noté. Merci de faire vivre les commerces de votre quartier.",
};

export default function ThanksPage() {
  const [params] = useSearchParams();
  const { data: me } = useQuery(meQueryOptions());
  const subject = params.get("sujet");
  const { title, text } = subject && subject in SUBJECTS ? SUBJECTS[subject as keyof typeof SUBJECTS] : DEFAULT;
  return (
    <div className="mx-auto flex min-h-[70vh] max-w-md flex-col items-center justify-center gap-5 px-6 py-10 text-center">
      <div className="flex size-20 items-center justify-center rounded-full bg-brand-100 text-brand-700 dark:bg-brand-900 dark:text-brand-100">
        <svg viewBox="0 0 24 24" className="size-10" fill="none" stroke="currentColor" strokeWidth="2.5" aria-hidden="true">
          <path d="m5 12.5 4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </div>
      <h1 className="text-3xl font-black tracking-tight">{title}</h1>
      <p className="text-lg text-stone-700 dark:text-stone-300">{text}</p>
      <div className="mt-2 flex w-full flex-col gap-3">
        {me ? (
          <ButtonLink to="/cartes-de-fidelite" full>
            Voir mes cartes
          </ButtonLink>
        ) : (
          <ButtonLink to="/signup" full>
            Créer mon compte
          </ButtonLink>
        )}
        <ButtonLink to="/boutiques" variant="secondary" full>
          Découvrir les boutiques
        </ButtonLink>
        <ButtonLink to="/" variant="ghost" full>
          Retour à l'accueil
        </ButtonLink>
      </div>
    </div>
  );
}
