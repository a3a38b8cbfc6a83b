import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { ComposerForm } from "../components/composer-form.tsx";
import { SentList } from "../components/sent-list.tsx";

/** /admin/push (platform admin only): an announcement to all shoppers or all shop owners, through the same pipeline. */
export default function PlatformPushPage() {
  return (
    <BackOfficeFrame
      scope="platform"
      title="Notifications push"
      lead="Une annonce de Fidèle à tous les utilisateurs ou à tous les commerçants."
    >
      <ComposerForm scope={{ kind: "platform" }} senderName="Fidèle" />
      <Section id="envoyes" title="Annonces envoyées" bare>
        <SentList scope={{ kind: "platform" }} />
      </Section>
    </BackOfficeFrame>
  );
}
