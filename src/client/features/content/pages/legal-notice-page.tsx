import type { ReactNode } from "react";
import { Link } from "react-router";
import { Notice } from "../../../components/ui/notice.tsx";
import { Page } from "../../../components/ui/page.tsx";
import { useLegalNotice } from "../api/get-legal-notice.ts";
import { ContactLink } from "../components/contact-link.tsx";
import { Prose, Section } from "../components/prose.tsx";
import { SiteFooter } from "../components/site-footer.tsx";

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="py-3">
      <dt className="text-sm font-semibold text-brand-800 dark:text-brand-200">{label}</dt>
      <dd className="mt-0.5 whitespace-pre-line text-stone-900 dark:text-stone-100">{children}</dd>
    </div>
  );
}

/**
 * Mentions légales (LCEN art. 6 III): publisher, publication director and host,
 * as the operator configured them (LEGAL_* variables).
 */
export default function LegalNoticePage() {
  const { data: legal, isPending, isError } = useLegalNotice();
  return (
    <>
      <Page title="Mentions légales" lead="Qui édite et héberge ce service, et comment nous joindre.">
        {isError ? <Notice tone="error">Les informations de l'éditeur n'ont pas pu être chargées. Réessayez dans un instant.</Notice> : null}
        {isPending ? (
          <div className="h-72 animate-pulse rounded-2xl bg-stone-200 dark:bg-stone-800" role="status" aria-label="Chargement des informations de l'éditeur" />
        ) : null}
        {legal ? (
          <dl className="divide-y divide-stone-200 rounded-2xl border border-stone-200 bg-white px-4 shadow-sm dark:divide-stone-800 dark:border-stone-800 dark:bg-stone-900">
            <Fact label="Éditeur">{legal.company}</Fact>
            <Fact label="Adresse">{legal.address}</Fact>
            <Fact label="Directeur de la publication">{legal.director}</Fact>
            <Fact label="Contact">
              <ContactLink contact={legal.contact} />
            </Fact>
            <Fact label="Hébergeur">{legal.host}</Fact>
            <Fact label="Adresse du service">{legal.appUrl}</Fact>
          </dl>
        ) : null}
        <Prose>
          <Section title="Propriété intellectuelle">
            <p>
              Les textes, le nom et l'identité visuelle de Fidèle sont protégés. Les noms, logos et photos des boutiques leur
              appartiennent et sont publiés sous leur responsabilité. Toute reproduction sans autorisation est interdite.
            </p>
          </Section>
          <Section title="Données personnelles">
            <p>
              Ce que nous collectons, pourquoi, combien de temps et comment exercer vos droits est expliqué dans la{" "}
              <Link to="/politiques-de-confidentialite">politique de confidentialité</Link>. L'utilisation du service est
              encadrée par les <Link to="/cgu">conditions générales d'utilisation</Link>.
            </p>
          </Section>
          <Section title="Signaler un contenu">
            <p>
              Pour signaler un contenu illicite publié sur Fidèle (page de boutique, message, avis), écrivez au contact
              ci-dessus en indiquant l'adresse de la page concernée et la raison de votre signalement.
            </p>
          </Section>
        </Prose>
      </Page>
      <SiteFooter />
    </>
  );
}
