import { useState } from "react";
import { Link } from "react-router";
import { formatDateTime, formatNumber } from "../../../../domain/format.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { type ContestAction, type OwnerContest, useContestAction, useOwnerContests } from "../api/owner-contests.ts";
import { ContestForm } from "../components/contest-form.tsx";
import { EntrantGroups } from "../components/entrant-groups.tsx";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { tabsOf } from "../../../components/back-office/menu.ts";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { errorText } from "../../../lib/api-client.ts";

const DONE_FR: Record<ContestAction, string> = {
  schedule: "Jeu programmé : son règlement est publié.",
  draw: "Tirage effectué : chaque personne tirée au sort a reçu un message.",
  remove: "Brouillon supprimé.",
};

function ContestItem({ shopId, contest, onEdit }: { shopId: string; contest: OwnerContest; onEdit: () => void }) {
  const act = useContestAction(shopId);
  const busy = act.isPending ? act.variables.action : null;
  const run = (action: ContestAction) => act.mutate({ id: contest.id, action });
  const c = contest;
  return (
    <li className="flex flex-col gap-2 py-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-lg font-semibold">{c.title}</p>
        <span
          className="rounded-full bg-stone-100 px-2 py-0.5 text-sm font-semibold dark:bg-stone-800"
          data-testid="contest-phase"
        >
          {c.phaseLabel}
        </span>
      </div>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        {c.kind === "draw" ? "Tirage au sort" : "Roue de la chance"} · du {formatDateTime(c.startsAt)} au{" "}
        {formatDateTime(c.endsAt)}
      </p>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        {c.prizes
          .map((p) =>
            c.kind === "draw"
              ? `${p.name} × ${formatNumber(p.quantity)}`
              : `${p.name} (${formatNumber(p.oddsBp / 100)} %)`,
          )
          .join(" · ")}
      </p>
      {c.kind === "draw" && (c.phase === "open" || c.phase === "closed") ? (
        <EntrantGroups shopId={shopId} contestId={c.id} />
      ) : null}
      {act.isSuccess ? (
        <Notice tone="success">{DONE_FR[act.variables.action]}</Notice>
      ) : act.isError ? (
        <Notice tone="error">{errorText(act.error)}</Notice>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {c.phase === "draft" || c.phase === "scheduled" || c.phase === "open" ? (
          <Button variant="secondary" onClick={onEdit}>
            Modifier
          </Button>
        ) : null}
        {c.phase === "draft" ? (
          <Button isLoading={busy === "schedule"} onClick={() => run("schedule")}>
            Programmer
          </Button>
        ) : null}
        {c.kind === "draw" && c.phase === "closed" ? (
          <Button isLoading={busy === "draw"} onClick={() => run("draw")}>
            Tirer au sort
          </Button>
        ) : null}
        {c.phase === "draft" ? (
          <Button variant="ghost" isLoading={busy === "remove"} onClick={() => run("remove")}>
            Supprimer
          </Button>
        ) : null}
      </div>
      {c.phase !== "draft" ? (
        <p className="flex flex-wrap gap-4 text-sm font-semibold">
          <Link className="text-brand-800 underline dark:text-brand-200" to={`/jeu-concours?concours=${c.id}`}>
            Page publique
          </Link>
          <Link className="text-brand-800 underline dark:text-brand-200" to={`/jeu-concours?reglement=${c.id}`}>
            Règlement
          </Link>
        </p>
      ) : null}
    </li>
  );
}

function Contests({ shopId }: { shopId: string }) {
  const list = useOwnerContests(shopId);
  const [editing, setEditing] = useState<OwnerContest | "new" | null>(null);
  if (editing)
    return (
      <Section title={editing === "new" ? "Nouveau jeu concours" : `Modifier « ${editing.title} »`}>
        <ContestForm shopId={shopId} editing={editing === "new" ? null : editing} onDone={() => setEditing(null)} />
      </Section>
    );
  return (
    <Section title="Vos jeux" actions={<Button onClick={() => setEditing("new")}>Créer un jeu</Button>}>
      {list.isPending ? (
        <p aria-busy="true">Chargement…</p>
      ) : list.error ? (
        <LoadError error={list.error} />
      ) : list.data.contests.length === 0 ? (
        <p className="text-stone-700 dark:text-stone-300">
          Aucun jeu pour l'instant. Un tirage au sort ou une roue fait revenir vos clients entre deux passages.
        </p>
      ) : (
        <ul className="flex flex-col divide-y divide-stone-200 dark:divide-stone-800">
          {list.data.contests.map((c) => (
            <ContestItem key={c.id} shopId={shopId} contest={c} onEdit={() => setEditing(c)} />
          ))}
        </ul>
      )}
    </Section>
  );
}

/** /admin/jeux-concours: the shop's draws and wheels, their schedule, and the draw button. */
export default function AdminContestsPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      tabs={tabsOf("Jeux")}
      title="Jeux concours"
      lead="Tirages au sort vérifiables et roues de la chance, avec un règlement généré à partir de vos informations légales."
    >
      {(shop) => <Contests shopId={shop.id} />}
    </BackOfficeFrame>
  );
}
