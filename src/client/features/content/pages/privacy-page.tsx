import { Link } from "react-router";
import { Page } from "../../../components/ui/page.tsx";
import { useLegalNotice } from "../api/get-legal-notice.ts";
import { ContactLink } from "../components/contact-link.tsx";
import { Prose, Section } from "../components/prose.tsx";
import { SiteFooter } from "../components/site-footer.tsx";

const UPDATED = "21 novembre 2026";

type Row = { title: string; what: string; why: string; basis: string; howLong: string };

/** What is collected, why, on which legal basis (GDPR art. 6) and for how long (art. 13). */
const PROCESSING: Row[] = [
  {
    title: "Votre compte",
    what: "Adresse e-mail, mot de passe (conservé uniquement sous forme chiffrée irréversible), prénom, nom ; si vous les indiquez, date de naissance et code postal.",
    why: "Vous identifier, sécuriser votre compte, vous permettre de vous connecter sur plusieurs appareils.",
    basis: "Exécution du contrat (les conditions d'utilisation que vous acceptez).",
    howLong: "Jusqu'à la suppression de votre compte, et au plus 3 ans après votre dernière activité.",
  },
  {
    title: "Vos cartes de fidélité",
    what: "Boutiques où vous avez une carte, passages (date, heure), points gagnés et utilisés, récompenses, participations aux jeux concours.",
    why: "Faire fonctionner vos cartes de fidélité et vos récompenses.",
    basis: "Exécution du contrat.",
    howLong: "Jusqu'à la suppression de votre compte, et au plus 3 ans après votre dernière activité.",
  },
  {
    title: "La sécurité",
    what: "Sessions ouvertes (adresse IP, navigateur), dernière connexion, tentatives de connexion, signalements de scans suspects.",
    why: "Protéger votre compte, empêcher la fraude aux points (code photographié, comptes multiples).",
    basis: "Intérêt légitime de l'exploitant et des boutiques à un service sûr et loyal.",
    howLong: "Sessions : jusqu'à leur expiration ou votre déconnexion. Journaux de sécurité : 12 mois.",
  },
  {
    title: "Vos choix de messages",
    what: "Vos choix pour les e-mails, SMS et notifications (avec le texte accepté et la date), l'abonnement aux notifications de votre navigateur.",
    why: "Vous envoyer les newsletters et notifications des boutiques que vous avez acceptées, et pouvoir prouver votre accord.",
    basis: "Votre consentement, que vous pouvez retirer à tout moment.",
    howLong: "Tant que votre compte existe, et au plus 3 ans après votre dernière activité.",
  },
];

export default function PrivacyPage() {
  const { data: legal } = useLegalNotice();
  const contact = legal?.contact;
  return (
    <>
      <Page title="Politique de confidentialité" lead={`Ce que Fidèle fait de vos données, et comment garder la main dessus. Dernière mise à jour : ${UPDATED}.`}>
        <Prose>
          <Section title="Qui est responsable de vos données ?">
            <p>
              Le responsable du traitement est <strong>{legal?.company ?? "l'exploitant de ce service"}</strong>
              {legal?.address ? `, ${legal.address}` : ""}. Pour toute question sur vos données, écrivez à{" "}
              {contact ? <ContactLink contact={contact} /> : "l'adresse de contact des mentions légales"}.
            </p>
            <p>
              Fidèle ne collecte que ce qui est nécessaire pour faire fonctionner une carte de fidélité. Vos données ne sont ni
              vendues ni louées, et ne servent à aucune publicité.
            </p>
          </Section>

          <Section title="Ce que nous collectons, pourquoi et combien de temps">
            <div className="flex flex-col gap-3">
              {PROCESSING.map((row) => (
                <article key={row.title} className="rounded-2xl border border-stone-200 bg-white p-4 text-base shadow-sm dark:border-stone-800 dark:bg-stone-900">
                  <h3 className="mt-0! text-base font-bold text-stone-900 dark:text-stone-50">{row.title}</h3>
                  <p className="mt-1! text-sm">{row.what}</p>
                  <dl className="mt-3 grid gap-2 border-t border-stone-100 pt-3 text-sm dark:border-stone-800">
                    <dt className="font-semibold text-brand-800 dark:text-brand-200">Pourquoi</dt>
                    <dd className="-mt-1.5">{row.why}</dd>
                    <dt className="font-semibold text-brand-800 dark:text-brand-200">Base légale</dt>
                    <dd className="-mt-1.5">{row.basis}</dd>
                    <dt className="font-semibold text-brand-800 dark:text-brand-200">Durée de conservation</dt>
                    <dd className="-mt-1.5">{row.howLong}</dd>
                  </dl>
                </article>
              ))}
            </div>
            <p>
              <strong>3 ans après votre dernière activité</strong> (dernière connexion, dernier passage en boutique), votre
              compte et toutes les données qui s'y rattachent sont supprimés. Les statistiques que les boutiques conservent
              ensuite sont anonymes.
            </p>
          </Section>

          <Section title="Qui peut voir vos données ?">
            <ul>
              <li>
                <strong>Les boutiques dont vous êtes client</strong> voient, pour leur seule carte : vos prénom et nom, votre
                adresse e-mail, vos passages, vos points et vos récompenses. Une boutique ne voit rien de vos cartes dans
                d'autres boutiques.
              </li>
              <li>
                <strong>L'exploitant</strong> et son <strong>hébergeur</strong>
                {legal?.host ? ` (${legal.host})` : ""}, qui stocke les données pour son compte.
              </li>
              <li>
                <strong>Le prestataire d'envoi d'e-mails</strong> de l'exploitant, pour acheminer les messages que vous
                recevez.
              </li>
              <li>
                <strong>Le service de notifications de votre navigateur</strong> (Google, Apple ou Mozilla selon votre
                téléphone) si vous activez les notifications : il transmet des messages chiffrés qu'il ne peut pas lire.
              </li>
            </ul>
          </Section>

          <Section title="Cookies et stockage sur votre appareil">
            <p>
              Fidèle utilise un seul cookie, indispensable pour garder votre session ouverte, et garde sur votre appareil quelques
              préférences (thème clair ou sombre, choix d'installation de l'application). Aucun cookie publicitaire ni outil
              de mesure d'audience tiers n'est utilisé ; aucun consentement n'est donc demandé pour ces éléments.
            </p>
          </Section>

          <Section title="Vos droits">
            <p>Vous disposez à tout moment des droits suivants sur vos données :</p>
            <ul>
              <li>
                <strong>Accès</strong> : savoir quelles données nous avons sur vous et en obtenir une copie.
              </li>
              <li>
                <strong>Rectification</strong> : corriger une donnée inexacte ; vous pouvez le faire vous-même depuis{" "}
                <Link to="/edit-profil">Modifier mon profil</Link>.
              </li>
              <li>
                <strong>Effacement</strong> : faire supprimer votre compte et vos données.
              </li>
              <li>
                <strong>Portabilité</strong> : recevoir vos données dans un format lisible par une machine (CSV ou JSON) pour
                les réutiliser ailleurs.
              </li>
              <li>
                <strong>Opposition</strong> : vous opposer à un traitement fondé sur l'intérêt légitime, pour un motif tenant à
                votre situation.
              </li>
              <li>
                <strong>Limitation</strong> : demander le gel d'une donnée le temps d'examiner une contestation.
              </li>
              <li>
                <strong>Retrait du consentement</strong> : couper newsletters et notifications à tout moment, depuis votre
                profil ou le lien de désinscription de chaque message.
              </li>
              <li>
                <strong>Directives après votre décès</strong> : indiquer ce que deviennent vos données.
              </li>
            </ul>
          </Section>

          <Section title="Comment exercer vos droits">
            <ol>
              <li>
                Écrivez à {contact ? <ContactLink contact={contact} /> : "l'adresse de contact des mentions légales"} depuis l'adresse
                e-mail de votre compte, en précisant le droit que vous exercez.
              </li>
              <li>
                Nous vous répondons dans un délai d'un mois au plus (prolongeable de deux mois pour une demande complexe, auquel
                cas nous vous prévenons). Nous pouvons vous demander de confirmer votre identité en cas de doute raisonnable,
                jamais davantage.
              </li>
              <li>
                Si la réponse ne vous satisfait pas, vous pouvez adresser une réclamation à la{" "}
                <strong>CNIL</strong> (Commission nationale de l'informatique et des libertés), en ligne sur{" "}
                <a href="https://www.cnil.fr/fr/plaintes" rel="noopener noreferrer" target="_blank">
                  cnil.fr/fr/plaintes
                </a>{" "}
                ou par courrier : 3 place de Fontenoy, TSA 80715, 75334 Paris Cedex 07.
              </li>
            </ol>
          </Section>

          <Section title="Sécurité">
            <p>
              Les échanges avec Fidèle sont chiffrés, les mots de passe ne sont jamais conservés en clair, l'accès aux données
              d'une boutique est réservé à son équipe, et vous pouvez activer la double authentification et fermer à distance
              vos autres sessions depuis <Link to="/protected">Sécurité du compte</Link>.
            </p>
          </Section>
        </Prose>
      </Page>
      <SiteFooter />
    </>
  );
}
