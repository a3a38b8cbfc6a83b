import type { ReactNode } from "react";
import { Link } from "react-router";
import { Page } from "../../../components/ui/page.tsx";
import { SiteFooter } from "../components/site-footer.tsx";

type Question = { q: string; a: ReactNode };

const A = ({ to, children }: { to: string; children: ReactNode }) => (
  <Link to={to} className="font-medium text-brand-800 underline underline-offset-2 dark:text-brand-200">
    {children}
  </Link>
);

const SHOPPERS: Question[] = [
  {
    q: "Comment gagner des points ?",
    a: (
      <>
        <p>
          À la caisse, ouvrez Fidèle et scannez le code affiché par la boutique, avec l'appareil photo de votre téléphone ou le
          bouton « Scanner » de l'application. Votre passage est crédité aussitôt sur la carte de cette boutique : un tampon ou
          des points, selon la carte qu'elle a choisie.
        </p>
        <p>La première fois, la carte de la boutique est créée automatiquement : il n'y a rien à demander.</p>
      </>
    ),
  },
  {
    q: "Pourquoi mon scan est-il refusé juste après un autre passage ?",
    a: (
      <>
        <p>
          Pour que les points récompensent de vrais passages, chaque boutique impose un délai minimum entre deux passages
          crédités d'un même client (4 heures par défaut) et un nombre maximum de passages par jour (un par défaut). La
          boutique peut ajuster ces limites.
        </p>
        <p>Quand un scan arrive trop tôt, Fidèle vous indique à partir de quand le prochain passage comptera.</p>
      </>
    ),
  },
  {
    q: "Le code de la boutique n'est pas accepté, que faire ?",
    a: (
      <p>
        Le code affiché au comptoir change toutes les 30 secondes : une photo prise plus tôt ou reçue d'un ami n'est plus
        valable. Scannez le code à l'écran au moment de payer. Si le problème continue, le commerçant peut créditer votre
        passage à partir de votre adresse e-mail.
      </p>
    ),
  },
  {
    q: "Comment obtenir une récompense ?",
    a: (
      <p>
        Chaque boutique choisit ses récompenses et le nombre de points qu'elles demandent ; vous les voyez sur sa carte, avec
        votre progression. Une fois le seuil atteint, choisissez la récompense dans l'application et montrez l'écran au
        comptoir : un membre de l'équipe la valide, et les points correspondants sont déduits de votre carte.
      </p>
    ),
  },
  {
    q: "Quelles données gardez-vous sur moi ?",
    a: (
      <p>
        Votre adresse e-mail, vos prénom et nom, et éventuellement votre date de naissance et votre code postal si vous les
        indiquez ; l'historique de vos passages et récompenses dans chaque boutique ; vos choix de notifications. Rien n'est
        revendu, aucune publicité n'est affichée. Tout est détaillé dans la{" "}
        <A to="/politiques-de-confidentialite">politique de confidentialité</A>.
      </p>
    ),
  },
  {
    q: "Une boutique peut-elle m'envoyer des messages ?",
    a: (
      <p>
        Seulement si vous l'avez accepté. Les newsletters par e-mail et les notifications sur le téléphone sont désactivées
        tant que vous ne les activez pas, et vous pouvez changer d'avis à tout moment depuis votre profil.
      </p>
    ),
  },
  {
    q: "Comment installer l'application sur mon téléphone ?",
    a: (
      <>
        <p>Fidèle s'installe depuis le navigateur, sans passer par un magasin d'applications :</p>
        <ul className="list-disc pl-6">
          <li>
            <strong>iPhone</strong> : ouvrez Fidèle dans Safari, touchez le bouton Partager, puis « Sur l'écran d'accueil ».
          </li>
          <li>
            <strong>Android</strong> : ouvrez Fidèle dans Chrome, touchez le menu ⋮, puis « Installer l'application » ou
            « Ajouter à l'écran d'accueil ».
          </li>
        </ul>
        <p>L'icône Fidèle apparaît alors avec vos autres applications et s'ouvre en plein écran.</p>
      </>
    ),
  },
  {
    q: "Comment supprimer mon compte ?",
    a: (
      <p>
        Vous pouvez demander la suppression de votre compte et de vos données à tout moment ; la marche à suivre figure dans
        la <A to="/politiques-de-confidentialite">politique de confidentialité</A>. Sans activité pendant 3 ans, votre compte
        est de toute façon supprimé.
      </p>
    ),
  },
];

const SHOPS: Question[] = [
  {
    q: "Comment inscrire ma boutique ?",
    a: (
      <p>
        Créez un compte, puis rendez-vous sur <A to="/inscription-boutique">Inscrire ma boutique</A> : nom, catégorie,
        adresse et téléphone suffisent. Vous choisissez ensuite votre carte (tampons ou points), vos récompenses et vos
        horaires, et vous affichez votre code au comptoir. Vos premiers clients peuvent scanner le jour même.
      </p>
    ),
  },
  {
    q: "Combien ça coûte ?",
    a: (
      <p>
        Rien. Fidèle est gratuit, sans abonnement ni commission sur vos ventes, et peut être hébergé sur votre propre serveur.
        Le détail de ce qui est inclus est sur la page <A to="/offre">offre commerçants</A>.
      </p>
    ),
  },
  {
    q: "De quel matériel ai-je besoin ?",
    a: (
      <p>
        D'une tablette ou d'un téléphone posé près de la caisse pour afficher le code qui change toutes les 30 secondes. Si vous
        le souhaitez, vous pouvez aussi imprimer une affiche avec un code fixe, toujours soumise au délai entre deux passages.
      </p>
    ),
  },
  {
    q: "Pourquoi le code change-t-il sans arrêt ?",
    a: (
      <p>
        Un code fixe peut être photographié et scanné depuis chez soi, autant de fois qu'on veut. Le code de Fidèle se renouvelle
        toutes les 30 secondes et n'est plus accepté une minute plus tard : seuls les clients présents dans votre boutique
        gagnent des points.
      </p>
    ),
  },
  {
    q: "Mon équipe peut-elle valider les récompenses ?",
    a: (
      <p>
        Oui. Invitez vos vendeurs par e-mail depuis l'espace commerçant : ils peuvent afficher le code, créditer un passage et
        valider une récompense, sans accéder aux réglages ni à la liste complète de vos clients.
      </p>
    ),
  },
  {
    q: "Puis-je contacter mes clients ?",
    a: (
      <p>
        Oui, ceux qui l'ont accepté : newsletters par e-mail, notifications sur le téléphone, jeux concours. Chaque client
        choisit ce qu'il reçoit et peut se désinscrire en un geste, comme le demande la loi.
      </p>
    ),
  },
];

function QuestionList({ id, title, questions }: { id: string; title: string; questions: Question[] }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-3 text-lg font-bold">
        {title}
      </h2>
      <div className="divide-y divide-stone-200 overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm dark:divide-stone-800 dark:border-stone-800 dark:bg-stone-900">
        {questions.map(({ q, a }) => (
          <details key={q} className="group">
            <summary className="flex min-h-14 cursor-pointer list-none items-center justify-between gap-3 px-4 py-3 font-semibold [&::-webkit-details-marker]:hidden">
              <span>{q}</span>
              <svg
                viewBox="0 0 24 24"
                className="size-5 shrink-0 text-brand-700 transition group-open:rotate-180 dark:text-brand-200"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                aria-hidden="true"
              >
                <path d="m6 9 6 6 6-6" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
            </summary>
            <div className="flex flex-col gap-2 px-4 pb-4 text-stone-700 dark:text-stone-300">{a}</div>
          </details>
        ))}
      </div>
    </section>
  );
}

export default function FaqPage() {
  return (
    <>
      <Page title="Questions fréquentes" lead="Les réponses aux questions qu'on nous pose le plus, côté clients et côté boutiques.">
        <QuestionList id="faq-clients" title="Pour les clients" questions={SHOPPERS} />
        <QuestionList id="faq-boutiques" title="Pour les commerçants" questions={SHOPS} />
        <p className="text-stone-700 dark:text-stone-300">
          Vous ne trouvez pas votre réponse ? Écrivez-nous : l'adresse de contact figure dans les{" "}
          <A to="/mentions-legales">mentions légales</A>.
        </p>
      </Page>
      <SiteFooter />
    </>
  );
}
