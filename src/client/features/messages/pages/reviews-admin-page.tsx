import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { formatDateMedium, formatDecimal, plural } from "../../../../domain/format.ts";
import {
  REVIEW_REQUEST_GAP_DAYS,
  REVIEW_TARGET_LABELS_FR,
  REVIEW_TARGETS,
  type ReviewTarget,
  reviewRequestText,
} from "../../../../domain/reviews/review-requests.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { tabsOf } from "../../../components/back-office/menu.ts";
import { ChoiceCards } from "../../../components/ui/choice-cards.tsx";
import { Checkbox, Field, NumberField } from "../../../components/ui/field.tsx";
import { SaveFooter } from "../../../components/ui/save-footer.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { errorFields } from "../../../lib/api-client.ts";
import { type ReviewsPage, reviewsPageQueryOptions, useSaveReviewSettings } from "../api/reviews.ts";

function Settings({ shopId, page }: { shopId: string; page: ReviewsPage }) {
  const [s, setS] = useState(page.settings);
  const [every, setEvery] = useState(String(page.settings.everyVisits));
  const save = useSaveReviewSettings(shopId);
  const fields = errorFields(save.error);
  const preview = reviewRequestText(s.target, page.shopName);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ ...s, everyVisits: Number(every) });
  };
  return (
    <Section
      title="Demander un avis"
      lead={`Après un passage crédité, une demande au plus tous les ${REVIEW_REQUEST_GAP_DAYS} jours par client, seulement à ceux qui acceptent vos messages. Jamais de récompense en échange, et tout le monde est sollicité de la même façon, content ou non : c'est la règle de Google et de la loi.`}
    >
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <Checkbox
          label="Demander un avis après un passage"
          checked={s.enabled}
          onChange={(e) => setS({ ...s, enabled: e.target.checked })}
        />
        <ChoiceCards<ReviewTarget>
          legend="Où l'avis est demandé"
          name="target"
          value={s.target}
          onChange={(target) => setS({ ...s, target })}
          options={REVIEW_TARGETS.map((t) => ({
            value: t,
            title: REVIEW_TARGET_LABELS_FR[t],
            text:
              t === "google"
                ? "Le lien de votre fiche Google, à coller ci-dessous."
                : "Une note de 1 à 5 et un commentaire, sur votre page Fidèle.",
          }))}
        />
        {s.target === "google" ? (
          <Field
            label="Lien de votre fiche Google"
            name="googleUrl"
            type="url"
            inputMode="url"
            value={s.googleUrl ?? ""}
            onChange={(e) => setS({ ...s, googleUrl: e.target.value || null })}
            error={fields.googleUrl}
            hint="Dans Google Business Profile : « Demander des avis », puis copiez le lien."
          />
        ) : null}
        <NumberField
          label="Après quels passages"
          name="everyVisits"
          min={1}
          max={100}
          value={every}
          onValue={setEvery}
          error={fields.everyVisits}
          hint="1 : après le premier passage seulement. 5 : après chaque 5e passage."
        />
        <Checkbox
          label="Aussi en notification"
          checked={s.push}
          onChange={(e) => setS({ ...s, push: e.target.checked })}
        />
        <Checkbox
          label="Aussi par e-mail"
          checked={s.email}
          onChange={(e) => setS({ ...s, email: e.target.checked })}
        />
        <div className="rounded-xl bg-stone-100 p-3 text-sm dark:bg-stone-800" data-testid="review-preview">
          <p className="font-semibold">{preview.title}</p>
          <p>{preview.body}</p>
          <p className="mt-1 text-stone-700 dark:text-stone-300">
            Ce texte ne peut pas être modifié : il ne promet rien.
          </p>
        </div>
        <SaveFooter save={save} />
      </form>
    </Section>
  );
}

function Reviews({ shopId }: { shopId: string }) {
  const query = useQuery(reviewsPageQueryOptions(shopId));
  return (
    <QueryState query={query} blocks={3}>
      {(page) => (
        <div className="flex flex-col gap-5">
          <Settings shopId={shopId} page={page} />
          <Section
            title="Demandes envoyées"
            lead={`${plural(page.sent.total, "demande", "demandes")} en tout, dont ${page.sent.last30} ces 30 derniers jours ; ${plural(page.sent.reached, "personne l'a reçue", "personnes l'ont reçue")}.`}
          >
            {page.requests.length === 0 ? (
              <p className="text-sm">Aucune demande envoyée pour l'instant.</p>
            ) : (
              <ul className="flex flex-col gap-1 text-sm" aria-label="Demandes d'avis envoyées">
                {page.requests.map((q) => (
                  <li key={`${q.at}-${q.firstName}`}>
                    {formatDateMedium(q.at)} · {q.firstName} · après le passage n° {q.visits} ·{" "}
                    {q.target === "google" ? "Google" : "Fidèle"}
                  </li>
                ))}
              </ul>
            )}
          </Section>
          <Section
            title="Avis reçus dans Fidèle"
            lead={
              page.reviews.count === 0
                ? "Aucun avis pour l'instant."
                : `${plural(page.reviews.count, "avis", "avis")}, note moyenne ${formatDecimal(page.reviews.average ?? 0)} sur 5.`
            }
          >
            <ul className="flex flex-col divide-y divide-stone-200 dark:divide-stone-800" aria-label="Avis reçus">
              {page.reviews.list.map((r) => (
                <li key={r.id} className="py-2">
                  <p className="font-medium">
                    {r.author} · {plural(r.rating, "étoile", "étoiles")} sur 5 · {formatDateMedium(r.at)}
                  </p>
                  {r.comment ? <p className="text-sm">{r.comment}</p> : null}
                </li>
              ))}
            </ul>
          </Section>
        </div>
      )}
    </QueryState>
  );
}

/** /admin/avis: review requests within the rules, and the reviews received (issue 28). */
export default function ReviewsAdminPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      title="Avis clients"
      lead="Demandez un avis à vos clients après leur passage, sans rien promettre, et lisez ce qu'ils en disent."
      tabs={tabsOf("Communication")}
    >
      {(shop) => <Reviews shopId={shop.id} />}
    </BackOfficeFrame>
  );
}
