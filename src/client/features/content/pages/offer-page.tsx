import { Link } from "react-router";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { SiteFooter } from "../components/site-footer.tsx";

type Feature = { title: string; text: string; icon: string };

/** Stroke paths on a 24 px grid. */
const ICONS = {
  qr: "M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h2v2h-2zM18 18h2v2h-2zM14 18h2M18 14h2",
  gift: "M4 11h16v9H4zM3 7h18v4H3zM12 7v13M12 7c-1.5-3-5-3-5-1s3 1 5 1c2 0 5 1 5-1s-3.5-2-5 1",
  spark: "M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5 18 18M6 18l2.5-2.5M15.5 8.5 18 6",
  trophy: "M8 4h8v5a4 4 0 0 1-8 0zM8 6H5a3 3 0 0 0 3 4M16 6h3a3 3 0 0 1-3 4M12 13v4M8 21h8M9 17h6",
  bell: "M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0",
  users: "M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21a7 7 0 0 1 14 0M16 3.5a4 4 0 0 1 0 7M18 14a6 6 0 0 1 4 7",
  chart: "M4 20V10M10 20V4M16 20v-7M22 20H2",
  team: "M12 12a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 20a6 6 0 0 1 12 0M5 9a2 2 0 1 0 0-4M19 9a2 2 0 1 0 0-4",
  server: "M4 4h16v6H4zM4 14h16v6H4zM8 7h.01M8 17h.01",
} as const;

function FeatureIcon({ path }: { path: string }) {
  return (
    <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700 dark:bg-stone-800 dark:text-brand-200">
      <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
        <path d={path} />
      </svg>
    </span>
  );
}

const FEATURES: Feature[] = [
  {
    icon: ICONS.qr,
    title: "Un code qu'on ne peut pas photographier",
    text: "Le QR code affiché au comptoir change toutes les 30 secondes. Une photo partagée ou rejouée depuis chez soi ne crédite rien : seuls les clients présents gagnent des points.",
  },
  {
    icon: ICONS.gift,
    title: "Vos récompenses, vos règles",
    text: "Carte à tampons ou à points, paliers de récompenses, délai entre deux passages : vous réglez tout, et la validation au comptoir prend quelques secondes.",
  },
  {
    icon: ICONS.spark,
    title: "Points doublés",
    text: "Animez un jour creux ou une heure calme en doublant les points sur un créneau, sans toucher à vos prix.",
  },
  {
    icon: ICONS.trophy,
    title: "Jeux concours",
    text: "Organisez un tirage au sort ou une roue de la chance avec vos lots, et faites revenir vos clients.",
  },
  {
    icon: ICONS.bell,
    title: "Newsletters et notifications",
    text: "Prévenez vos clients d'une nouveauté par e-mail ou par notification sur leur téléphone — seulement ceux qui l'ont accepté.",
  },
  {
    icon: ICONS.users,
    title: "Votre liste de clients",
    text: "Qui sont vos habitués, quand sont-ils venus pour la dernière fois, combien de points ont-ils : tout est là, exportable en CSV.",
  },
  {
    icon: ICONS.chart,
    title: "Des statistiques claires",
    text: "Passages, nouveaux clients, points distribués et récompenses utilisées sur les 30 derniers jours, en graphiques.",
  },
  {
    icon: ICONS.team,
    title: "Votre équipe invitée",
    text: "Vos vendeurs affichent le code et valident les récompenses avec un accès limité, sans voir vos réglages.",
  },
  {
    icon: ICONS.server,
    title: "Gratuit et auto-hébergeable",
    text: "Pas d'abonnement, pas de commission. Fidèle s'installe sur votre propre serveur ou chez l'hébergeur de votre choix : vos données restent chez vous.",
  },
];

export default function OfferPage() {
  return (
    <>
      <section className="bg-gradient-to-b from-brand-800 to-brand-900 px-5 pb-10 pt-8 text-white">
        <div className="mx-auto max-w-md">
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-100">Pour les commerçants</p>
          <h1 className="mt-2 text-3xl font-black leading-tight tracking-tight">
            La carte de fidélité qui fait revenir vos clients, sans tricherie.
          </h1>
          <p className="mt-3 text-lg text-brand-50">
            Boulangerie, café, fleuriste, coiffeur, épicerie : lancez votre carte en quelques minutes, avec une tablette ou un
            téléphone au comptoir.
          </p>
          <div className="mt-6 flex flex-col gap-3">
            <ButtonLink to="/inscription-boutique" className="bg-accent-400 text-stone-950 hover:bg-accent-500" full>
              Inscrire ma boutique gratuitement
            </ButtonLink>
            <ButtonLink to="/presentation/fidele-en-cinq-minutes" variant="ghost" className="text-white hover:bg-white/10" full>
              Fidèle en 5 minutes
            </ButtonLink>
          </div>
        </div>
      </section>

      <div className="mx-auto max-w-md px-5 py-8">
        <h2 className="text-xl font-bold tracking-tight">Tout ce que votre boutique reçoit</h2>
        <ul className="mt-5 flex flex-col gap-4">
          {FEATURES.map((f) => (
            <li key={f.title} className="flex gap-4 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900">
              <FeatureIcon path={f.icon} />
              <div>
                <h3 className="font-semibold">{f.title}</h3>
                <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">{f.text}</p>
              </div>
            </li>
          ))}
        </ul>

        <section className="mt-8 rounded-2xl bg-accent-400/15 p-5 ring-1 ring-accent-400/40">
          <h2 className="text-lg font-bold">Comment démarrer</h2>
          <ol className="mt-3 flex list-decimal flex-col gap-2 pl-5 text-stone-800 dark:text-stone-200">
            <li>Créez votre compte et inscrivez votre boutique : nom, adresse, horaires.</li>
            <li>Choisissez votre carte et vos premières récompenses.</li>
            <li>Affichez votre code sur une tablette ou un téléphone près de la caisse.</li>
          </ol>
          <ButtonLink to="/inscription-boutique" className="mt-5" full>
            Je me lance
          </ButtonLink>
        </section>
        <p className="mt-6 text-center text-sm text-stone-700 dark:text-stone-300">
          Une question avant de commencer ?{" "}
          <Link to="/faq" className="font-medium text-brand-800 underline underline-offset-2 dark:text-brand-200">
            Consultez la FAQ
          </Link>
        </p>
      </div>
      <SiteFooter />
    </>
  );
}
