import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { type CardMode, formatDateMedium, plural, unitWord } from "../../../../domain/format.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { tabsOf } from "../../../components/back-office/menu.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Checkbox, NumberField } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { SaveFooter } from "../../../components/ui/save-footer.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import {
  type ReferralsPage,
  referralsPageQueryOptions,
  useDecideReferral,
  useSaveReferralProgram,
} from "../api/referrals.ts";

type Side = { points: number | null; rewardId: string | null };
type Rewards = ReferralsPage["rewards"];
type SideName = "sponsor" | "friend";

/** The two sides of a parrainage, in the form's order. */
const SIDES: readonly (readonly [SideName, string])[] = [
  ["sponsor", "Le parrain"],
  ["friend", "Le filleul"],
];

/** What one side receives: points of the card, or one of the shop's rewards. */
function SideFields({
  name,
  legend,
  value,
  onChange,
  rewards,
  mode,
}: {
  name: string;
  legend: string;
  value: Side;
  onChange: (v: Side) => void;
  rewards: Rewards;
  mode: CardMode;
}) {
  const kind = value.rewardId !== null ? "reward" : "points";
  return (
    <fieldset className="flex min-w-0 flex-col gap-3 rounded-xl border border-stone-200 p-3 dark:border-stone-700">
      <legend className="px-1 text-sm font-semibold">{legend}</legend>
      <SelectField
        label="Ce qu'il reçoit"
        name={`${name}-kind`}
        value={kind}
        onChange={(e) =>
          onChange(
            e.target.value === "reward"
              ? { points: null, rewardId: rewards[0]?.id ?? null }
              : { points: 1, rewardId: null },
          )
        }
      >
        <option value="points">Des {unitWord(mode, 2)} sur sa carte</option>
        <option value="reward" disabled={rewards.length === 0}>
          Une récompense de la boutique
        </option>
      </SelectField>
      {kind === "points" ? (
        <NumberField
          label={`Nombre de ${unitWord(mode, 2)}`}
          name={`${name}-points`}
          min={1}
          max={1000}
          value={value.points ?? ""}
          onChange={(e) => onChange({ points: e.target.value === "" ? null : Number(e.target.value), rewardId: null })}
        />
      ) : (
        <SelectField
          label="Récompense"
          name={`${name}-reward`}
          value={value.rewardId ?? ""}
          onChange={(e) => onChange({ points: null, rewardId: e.target.value })}
          options={rewards.map((r) => ({ value: r.id, label: r.title }))}
        />
      )}
    </fieldset>
  );
}

function Settings({ shopId, page, mode }: { shopId: string; page: ReferralsPage; mode: CardMode }) {
  const [enabled, setEnabled] = useState(page.settings.enabled);
  const [sides, setSides] = useState<Record<SideName, Side>>({
    sponsor: page.settings.sponsor,
    friend: page.settings.friend,
  });
  const [cap, setCap] = useState(String(page.settings.monthlyCap));
  const save = useSaveReferralProgram(shopId);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ enabled, ...sides, monthlyCap: Number(cap) });
  };
  return (
    <Section
      title="Réglages"
      lead="Les deux récompenses ne sont données qu'après le premier passage du filleul, validé au comptoir."
    >
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <Checkbox
          label="Proposer le parrainage à mes clients"
          checked={enabled}
          onChange={(e) => setEnabled(e.target.checked)}
        />
        {SIDES.map(([name, legend]) => (
          <SideFields
            key={name}
            name={name}
            legend={legend}
            value={sides[name]}
            onChange={(side) => setSides((s) => ({ ...s, [name]: side }))}
            rewards={page.rewards}
            mode={mode}
          />
        ))}
        <NumberField
          label="Parrainages récompensés par parrain et par mois"
          name="monthlyCap"
          min={1}
          max={50}
          value={cap}
          onValue={setCap}
          hint="Au-delà, le filleul reçoit sa bienvenue, le parrain rien de plus ce mois-ci."
        />
        <SaveFooter save={save} />
      </form>
    </Section>
  );
}

function Referrals({ shopId, page }: { shopId: string; page: ReferralsPage }) {
  const decide = useDecideReferral(shopId);
  const held = page.referrals.filter((r) => r.status === "held");
  return (
    <>
      <Section
        title="À vérifier"
        lead="Des comptes liés entre eux (même appareil, même réseau ou même numéro) : rien n'est donné sans votre accord."
      >
        {decide.isError ? <Notice tone="error">{errorText(decide.error)}</Notice> : null}
        {held.length === 0 ? (
          <p className="text-sm">Aucun parrainage à vérifier.</p>
        ) : (
          <ul className="flex flex-col gap-3" aria-label="Parrainages à vérifier">
            {held.map((r) => (
              <li key={r.id} className="rounded-xl border border-amber-300 p-3 dark:border-amber-800">
                <p className="font-semibold">
                  {r.sponsor} → {r.friend}
                </p>
                <p className="text-sm">Lié par : {r.reasons.join(", ")}</p>
                <div className="mt-2 flex flex-wrap gap-2">
                  <Button onClick={() => decide.mutate({ id: r.id, release: true })} disabled={decide.isPending}>
                    Récompenser
                  </Button>
                  <Button
                    variant="secondary"
                    onClick={() => decide.mutate({ id: r.id, release: false })}
                    disabled={decide.isPending}
                  >
                    Refuser
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section
        title="Qui a fait venir qui"
        lead={`${plural(page.totals.waiting, "invitation en attente", "invitations en attente")} du premier passage, ${plural(page.totals.released, "parrainage récompensé", "parrainages récompensés")}, ${plural(page.totals.refused, "refusé", "refusés")}.`}
      >
        {page.referrals.length === 0 ? (
          <p className="text-sm">Personne n'a encore été parrainé.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-stone-200 dark:divide-stone-800" aria-label="Parrainages">
            {page.referrals.map((r) => (
              <li key={r.id} className="py-2">
                <p className="font-medium">
                  {r.sponsor} → {r.friend}
                </p>
                <p className="text-sm text-stone-700 dark:text-stone-300">
                  {r.statusLabel} · invité le {formatDateMedium(r.createdAt)}
                  {r.status === "released" && r.sponsorRewarded === false
                    ? " · plafond du mois atteint pour le parrain"
                    : ""}
                  {r.status === "released" && r.friendGift ? ` · filleul : ${r.friendGift}` : ""}
                  {r.status === "released" && r.sponsorGift ? ` · parrain : ${r.sponsorGift}` : ""}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}

function ReferralsAdmin({ shopId, mode }: { shopId: string; mode: CardMode }) {
  const query = useQuery(referralsPageQueryOptions(shopId));
  return (
    <QueryState query={query} blocks={3}>
      {(page) => (
        <div className="flex flex-col gap-5">
          <Settings shopId={shopId} page={page} mode={mode} />
          <Referrals shopId={shopId} page={page} />
        </div>
      )}
    </QueryState>
  );
}

/** /admin/parrainage: the shop's parrainage, who brought whom, and the rings held for the owner (issue 28). */
export default function ReferralsAdminPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      title="Parrainage"
      lead="Vos clients font venir leurs proches ; chacun est récompensé après le premier passage du filleul."
      tabs={tabsOf("Communication")}
    >
      {(shop) => <ReferralsAdmin shopId={shop.id} mode={shop.mode} />}
    </BackOfficeFrame>
  );
}
