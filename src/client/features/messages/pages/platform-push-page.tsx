import { MessagesFrame } from "../components/back-office-frame.tsx";
import { ComposerForm } from "../components/composer-form.tsx";
import { SentList } from "../components/sent-list.tsx";

/** /admin/push (platform admin only): an announcement to all shoppers or all shop owners, through the same pipeline. */
export default function PlatformPushPage() {
  return (
    <MessagesFrame
      title="Notifications push"
      lead="Une annonce de Fidèle à tous les utilisateurs ou à tous les commerçants."
    >
      <ComposerForm scope={{ kind: "platform" }} senderName="Fidèle" />
      <section id="envoyes" aria-labelledby="envoyes-title" className="flex flex-col gap-3">
        <h2 id="envoyes-title" className="text-xl font-semibold">
          Annonces envoyées
        </h2>
        <SentList scope={{ kind: "platform" }} />
      </section>
    </MessagesFrame>
  );
}
