import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type CardMode, formatDecimal, plural } from "../../../../domain/format.ts";
import { RESULT_PERIODS } from "../../../../domain/messages/automations.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { tabsOf } from "../../../components/back-office/menu.ts";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { automationsQueryOptions } from "../api/automations.ts";
import { AutomationCard } from "../components/automation-card.tsx";

function Automations({ shopId, mode, days }: { shopId: string; mode: CardMode; days: number }) {
  const query = useQuery(automationsQueryOptions(shopId, days));
  return (
    <QueryState query={query} blocks={3}>
      {(page) => {
        const suggestion =
          page.medianDaysBetweenVisits === null
            ? `Suggéré : ${plural(page.suggestedWinBackDays, "jour", "jours")}.`
            : `Suggéré : ${plural(page.suggestedWinBackDays, "jour", "jours")}, deux fois le rythme habituel de vos clients (une visite tous les ${formatDecimal(page.medianDaysBetweenVisits)} jours).`;
        return (
          <div className="flex flex-col gap-5">
            <p className="text-sm text-stone-700 dark:text-stone-300">
              Chaque message part une seule fois par client et par occasion, seulement à ceux qui acceptent les messages
              de votre boutique, {page.sendWindow}, et jamais plus de{" "}
              {plural(page.recipientCapPerDay, "message", "messages")} de votre boutique par jour à la même personne.
            </p>
            {page.automations.map((automation) => (
              <AutomationCard
                key={automation.kind}
                shopId={shopId}
                shopName={page.shopName}
                mode={mode}
                automation={automation}
                birthdayGift={page.birthdayGift}
                suggestion={automation.kind === "win_back" ? suggestion : null}
              />
            ))}
          </div>
        );
      }}
    </QueryState>
  );
}

/** /admin/automatisations: messages that send themselves, and whether they bring customers back (issue 27). */
export default function AutomationsPage() {
  const [days, setDays] = useState<number>(30);
  return (
    <BackOfficeFrame
      scope="shop"
      title="Automatisations"
      lead="Des messages qui partent tout seuls au bon moment, et la preuve qu'ils font revenir vos clients."
      tabs={tabsOf("Communication")}
      actions={
        <label className="flex items-center gap-2 text-sm font-medium">
          Résultats sur
          <select
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
            className="min-h-11 rounded-xl border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
          >
            {RESULT_PERIODS.map((p) => (
              <option key={p} value={p}>
                {p} jours
              </option>
            ))}
          </select>
        </label>
      }
    >
      {(shop) => <Automations shopId={shop.id} mode={shop.mode} days={days} />}
    </BackOfficeFrame>
  );
}
