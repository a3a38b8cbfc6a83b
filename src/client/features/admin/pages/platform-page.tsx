import { useSearchParams } from "react-router";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { CONSOLE_VIEWS, type ConsoleView, tabsOf } from "../../../components/back-office/menu.ts";
import { Outbox, SmsOutbox } from "../components/platform-outboxes.tsx";
import { Overview } from "../components/platform-overview.tsx";
import { PlatformRetention } from "../components/platform-retention.tsx";
import { Shops, SmsShops } from "../components/platform-shops.tsx";
import { Users } from "../components/platform-users.tsx";

const TABS = tabsOf("Plateforme", "Console");

const viewOf = (value: string | null): ConsoleView | "apercu" =>
  (CONSOLE_VIEWS as readonly string[]).includes(value ?? "") ? (value as ConsoleView) : "apercu";

/**
 * The platform admin's /admin: one view at a time (the menu opens each) — the platform at a glance, its shops, their
 * SMS budgets and their retention and automations, its accounts, the mail and SMS it kept or sent.
 */
export default function PlatformPage() {
  const [params] = useSearchParams();
  const view = viewOf(params.get("vue"));
  return (
    <BackOfficeFrame
      scope="platform"
      title="Administration"
      back={null}
      lead="La plateforme en un coup d'œil."
      tabs={TABS}
    >
      {view === "apercu" ? <Overview /> : null}
      {view === "boutiques" ? (
        <>
          <Shops />
          <SmsShops />
          <PlatformRetention />
        </>
      ) : null}
      {view === "comptes" ? <Users /> : null}
      {view === "envois" ? (
        <>
          <Outbox />
          <SmsOutbox />
        </>
      ) : null}
    </BackOfficeFrame>
  );
}
