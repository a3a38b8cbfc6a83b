import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useMemo, useState } from "react";
import { formatDateTime, formatNumber, plural } from "../../../../domain/format.ts";
import type { SegmentKind } from "../../../../domain/messages/segments.ts";
import { MERGE_HINT_FR, type NewsletterContent } from "../../../../domain/messages/newsletter-blocks.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Card } from "../../../components/ui/page.tsx";
import { errorFields } from "../../../lib/api-client.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { tabsOf } from "../../../components/back-office/menu.ts";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { useDebounced } from "../../../lib/use-debounced.ts";
import {
  type EditorContext,
  editorQueryOptions,
  newsletterAudienceQueryOptions,
  useCreateCampaign,
  useSendTest,
} from "../api/newsletter.ts";
import { segmentOf } from "../components/composer-form.tsx";
import { SegmentFields } from "../components/segment-fields.tsx";
import { BlockList, type DraftBlock, newBlock } from "../components/newsletter-blocks.tsx";
import { NewsletterCampaigns } from "../components/newsletter-campaigns.tsx";
import { NewsletterPreview } from "../components/newsletter-preview.tsx";
import { SendWhen } from "../components/send-when.tsx";

/** The content as the API takes it (the editor's keys dropped), or null while it cannot be previewed. */
function contentOf(subject: string, preheader: string, blocks: DraftBlock[]): NewsletterContent | null {
  if (!subject.trim() || blocks.length === 0) return null;
  return { subject, preheader, blocks: blocks.map(({ key: _key, ...block }) => block) };
}

function Editor({ shopId, context }: { shopId: string; context: EditorContext }) {
  const [kind, setKind] = useState<SegmentKind>("all");
  const [days, setDays] = useState(30);
  const [tierId, setTierId] = useState(context.tiers[0]?.id ?? "");
  const [subject, setSubject] = useState("");
  const [preheader, setPreheader] = useState("");
  const [blocks, setBlocks] = useState<DraftBlock[]>(() => [
    newBlock("title", context.rewards),
    newBlock("text", context.rewards),
  ]);
  const [when, setWhen] = useState<"now" | "later">("now");
  const [at, setAt] = useState("");
  const [sent, setSent] = useState<{ subject: string; scheduledAt: string | null } | null>(null);
  const create = useCreateCampaign(shopId);
  const test = useSendTest(shopId);

  const segment = segmentOf(kind, days, tierId);
  const segmentReady = kind !== "vip" || tierId !== "";
  const count = useQuery({
    ...newsletterAudienceQueryOptions(shopId, segment),
    enabled: segmentReady,
    placeholderData: keepPreviousData,
  });
  const content = useMemo(() => contentOf(subject, preheader, blocks), [subject, preheader, blocks]);
  const previewContent = useDebounced(content, 500);
  const error = create.error ?? test.error;
  const fields = errorFields(error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const scheduledAt = when === "later" && at ? new Date(at).toISOString() : null;
    test.reset();
    create.mutate(
      { ...(content ?? { subject, preheader, blocks: [] }), segment, scheduledAt },
      {
        onSuccess: () => {
          setSent({ subject, scheduledAt });
          document.getElementById("campagnes")?.scrollIntoView({ behavior: "smooth" });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} className="flex min-w-0 flex-col gap-5" noValidate>
      <Card className="flex flex-col gap-4">
        <h2 className="text-lg font-semibold">À qui ?</h2>
        <SegmentFields
          kind={kind}
          onKind={setKind}
          tiers={context.tiers}
          tierId={tierId}
          onTierId={setTierId}
          days={days}
          onDays={setDays}
          daysError={fields["segment.days"]}
        />
        <p
          role="status"
          aria-live="polite"
          data-testid="newsletter-audience"
          className="rounded-xl bg-brand-50 px-4 py-3 font-semibold text-brand-900 dark:bg-stone-800 dark:text-brand-100"
        >
          {count.data
            ? `${plural(count.data.email, "client recevra", "clients recevront")} cet e-mail.`
            : "Calcul du nombre de destinataires…"}
        </p>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Seulement les clients qui ont accepté vos e-mails, dont l'adresse est vérifiée et n'est pas en échec. Chaque
          e-mail porte un lien de désabonnement en un clic.
        </p>
      </Card>

      <Card className="flex flex-col gap-4">
        <h2 className="text-lg font-semibold">L'e-mail</h2>
        <Field label="Objet" value={subject} maxLength={150} onValue={setSubject} error={fields.subject} required />
        <Field
          label="Texte d'aperçu (facultatif)"
          hint="La ligne que la boîte de réception affiche après l'objet."
          value={preheader}
          maxLength={150}
          onValue={setPreheader}
          error={fields.preheader}
        />
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Personnalisez l'objet, les titres, les textes et les boutons avec : {MERGE_HINT_FR}.
        </p>
        <BlockList blocks={blocks} setBlocks={setBlocks} context={context} errors={fields} />
      </Card>

      <Card className="flex min-w-0 flex-col gap-4">
        <NewsletterPreview shopId={shopId} content={previewContent} />
        <Button
          variant="secondary"
          isLoading={test.isPending}
          disabled={content === null}
          onClick={() => {
            create.reset();
            if (content) test.mutate(content);
          }}
        >
          M'envoyer un test
        </Button>
        {test.data ? (
          <Notice tone="success">
            {test.data.kept
              ? `Test enregistré pour ${test.data.sentTo} (aucun serveur d'e-mails configuré : il reste dans la boîte d'envoi de la plateforme).`
              : `Test envoyé à ${test.data.sentTo}.`}
          </Notice>
        ) : null}
      </Card>

      <Card className="flex flex-col gap-4">
        <SendWhen when={when} onWhen={setWhen} at={at} onAt={setAt} error={fields.scheduledAt} />
        <p className="text-sm text-stone-600 dark:text-stone-400">
          {`Les e-mails partent au rythme de ${formatNumber(context.ratePerSecond)} par seconde au plus ; vous pouvez suivre, mettre en pause et reprendre l'envoi. `}
          {context.openTracking
            ? "Les ouvertures sont comptées (réglage de l'exploitant de la plateforme) : chaque e-mail contient une image invisible. Aucun suivi des clics."
            : "Aucun suivi d'ouverture ni de clic : vos e-mails ne contiennent ni pixel ni lien de suivi."}
        </p>
        {sent ? (
          <Notice tone="success">
            {sent.scheduledAt
              ? `« ${sent.subject} » partira le ${formatDateTime(sent.scheduledAt)}.`
              : `« ${sent.subject} » est en cours d'envoi.`}
          </Notice>
        ) : null}
        {error ? <Notice tone="error">{error.message}</Notice> : null}
        <Button type="submit" isLoading={create.isPending} disabled={!segmentReady}>
          {when === "later" ? "Programmer la newsletter" : "Envoyer la newsletter"}
        </Button>
      </Card>
    </form>
  );
}

function Workspace({ shopId }: { shopId: string }) {
  const query = useQuery(editorQueryOptions(shopId));
  return (
    <QueryState query={query} blocks={2}>
      {(context) => (
        <>
          <Editor key={shopId} shopId={shopId} context={context} />
          <section aria-labelledby="campagnes" className="flex flex-col gap-3">
            <h2 id="campagnes" className="text-xl font-bold">
              Vos newsletters
            </h2>
            <NewsletterCampaigns shopId={shopId} openTracking={context.openTracking} />
          </section>
        </>
      )}
    </QueryState>
  );
}

/** /admin/newsletter: e-mail campaigns to the customers who accepted them. */
export default function NewsletterPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      title="Newsletter"
      lead="Un e-mail à vos clients qui l'ont accepté, avec leurs points et leurs récompenses."
      tabs={tabsOf("Communication")}
    >
      {(shop) => <Workspace shopId={shop.id} />}
    </BackOfficeFrame>
  );
}
