import { Link } from "react-router";
import { Page } from "../../../components/ui/page.tsx";
import { useLegalNotice } from "../api/get-legal-notice.ts";
import { Prose, Section } from "../components/prose.tsx";
import { SiteFooter } from "../components/site-footer.tsx";

export const TERMS_UPDATED = "21 novembre 2026";

/** Conditions générales d'utilisation of the service. The operator's name comes from its configuration. */
export default function TermsPage() {
  const { data: legal } = useLegalNotice();
  const operator = legal?.company ?? "l'exploitant du service";
  return (
    <>
      <Page title="Conditions générales d'utilisation" lead={`Dernière mise à jour : ${TERMS_UPDATED}.`}>
        <Prose>
          <Section title="1. Objet">
            <p>
              Les présentes conditions encadrent l'utilisation de Fidèle, un service de cartes de fidélité et de récompenses
              proposé par <strong>{operator}</strong> (« l'exploitant »), accessible depuis un navigateur et installable sur un
              téléphone. En créant un compte, vous acceptez ces conditions.
            </p>
          </Section>

          <Section title="2. Qui fait quoi">
            <ul>
              <li>
                Le <strong>client</strong> est la personne qui utilise Fidèle pour collecter des points dans les boutiques.
              </li>
              <li>
                La <strong>boutique</strong> (ou commerçant) propose une carte de fidélité sur Fidèle, en fixe les règles et
                les récompenses, et les honore.
              </li>
              <li>
                L'<strong>exploitant</strong> fait fonctionner le service : il héberge l'application et les données, et
                veille à sa sécurité.
              </li>
            </ul>
          </Section>

          <Section title="3. Votre compte">
            <p>
              L'inscription est gratuite. Elle demande une adresse e-mail valide, que vous confirmez, et vos prénom et nom.
              Vous devez avoir au moins 15 ans, ou l'accord d'un parent. Un compte est personnel : vous gardez votre mot de
              passe secret et vous êtes responsable de ce qui est fait avec votre compte. Si vous pensez qu'il a été utilisé
              par quelqu'un d'autre, changez votre mot de passe et fermez les autres sessions depuis la page{" "}
              <Link to="/protected">Sécurité du compte</Link>.
            </p>
          </Section>

          <Section title="4. Les cartes de fidélité">
            <p>
              Chaque boutique fixe les règles de sa carte : nombre de tampons ou de points par passage, délai minimum entre
              deux passages crédités, nombre de passages par jour, récompenses et points nécessaires. Ces règles sont
              affichées sur la carte de la boutique. Une boutique peut les modifier ; les points déjà gagnés restent acquis.
            </p>
            <p>
              Les points n'ont aucune valeur monétaire : ils ne sont ni remboursables, ni échangeables contre de l'argent, ni
              transférables d'une boutique à une autre ou d'un compte à un autre. Une récompense est fournie par la boutique,
              qui en est seule responsable ; l'exploitant n'en est pas le vendeur.
            </p>
          </Section>

          <Section title="5. Utilisation loyale">
            <p>Les points récompensent de vrais passages en boutique. Il est interdit notamment :</p>
            <ul>
              <li>de scanner un code hors de la boutique, à partir d'une photo ou d'une copie ;</li>
              <li>de créer plusieurs comptes pour cumuler des avantages, ou d'utiliser le compte d'un autre ;</li>
              <li>d'automatiser des scans ou de contourner les limites fixées par les boutiques ;</li>
              <li>de perturber le service ou de tenter d'accéder aux données d'autres utilisateurs.</li>
            </ul>
            <p>
              En cas de fraude, les points obtenus indûment peuvent être annulés par la boutique, et le compte suspendu par
              l'exploitant après vous avoir informé du motif.
            </p>
          </Section>

          <Section title="6. Engagements des boutiques">
            <p>
              La boutique s'engage à présenter des informations exactes, à honorer les récompenses affichées tant qu'elles
              sont proposées, et à n'utiliser les données de ses clients que pour sa carte de fidélité. Elle n'envoie
              newsletters et notifications qu'aux clients qui les ont acceptées, et respecte leur désinscription.
            </p>
          </Section>

          <Section title="7. Jeux concours">
            <p>
              Une boutique peut organiser un jeu concours sur Fidèle. Chaque jeu a son propre règlement, présenté avant de
              participer (dates, conditions, lots, mode de désignation des gagnants). La participation est gratuite et sans
              obligation d'achat, sauf mention contraire du règlement.
            </p>
          </Section>

          <Section title="8. Messages et notifications">
            <p>
              Les messages de service (confirmation d'adresse, code de connexion, sécurité du compte) sont envoyés à tous les
              utilisateurs. Les newsletters et notifications des boutiques ne vous sont envoyées qu'avec votre accord, que
              vous pouvez retirer à tout moment depuis votre profil.
            </p>
          </Section>

          <Section title="9. Disponibilité et responsabilité">
            <p>
              L'exploitant fait ses meilleurs efforts pour que Fidèle soit disponible et fiable, sans pouvoir garantir une
              disponibilité permanente : maintenance, panne ou coupure du réseau peuvent l'interrompre. Il ne répond pas des
              relations commerciales entre une boutique et ses clients, ni des récompenses fournies par les boutiques.
            </p>
          </Section>

          <Section title="10. Données personnelles">
            <p>
              Les données nécessaires au service sont traitées comme décrit dans la{" "}
              <Link to="/politiques-de-confidentialite">politique de confidentialité</Link>, qui précise aussi vos droits et
              comment les exercer.
            </p>
          </Section>

          <Section title="11. Fin d'utilisation">
            <p>
              Vous pouvez cesser d'utiliser Fidèle et demander la suppression de votre compte à tout moment : vos cartes et vos
              points sont alors définitivement effacés. Un compte resté sans activité pendant 3 ans est supprimé.
            </p>
          </Section>

          <Section title="12. Modification des conditions">
            <p>
              Ces conditions peuvent évoluer. En cas de changement important, vous en êtes informé dans l'application ou par
              e-mail avant son entrée en vigueur ; si vous le refusez, vous pouvez supprimer votre compte.
            </p>
          </Section>

          <Section title="13. Droit applicable">
            <p>
              Ces conditions sont soumises au droit français. En cas de désaccord, écrivez d'abord à l'exploitant
              {legal?.contact ? ` (${legal.contact})` : ""} pour trouver une solution amiable ; à défaut, le litige est porté
              devant les tribunaux compétents. Si vous êtes consommateur, vous pouvez aussi recourir gratuitement à un
              médiateur de la consommation.
            </p>
          </Section>
        </Prose>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Voir aussi les <Link to="/mentions-legales" className="underline">mentions légales</Link>.
        </p>
      </Page>
      <SiteFooter />
    </>
  );
}
