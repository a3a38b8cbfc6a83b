import type { SegmentKind } from "../../../../domain/messages/segments.ts";
import { NumberField } from "../../../components/ui/field.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";

const SEGMENT_OPTIONS: { kind: SegmentKind; label: string }[] = [
  { kind: "all", label: "Tous mes clients" },
  { kind: "vip", label: "Un niveau VIP (et au-delà)" },
  { kind: "visited_within", label: "Venus récemment" },
  { kind: "not_seen_for", label: "Pas revenus depuis un moment" },
  { kind: "birthday_month", label: "Anniversaire ce mois-ci" },
  { kind: "reward_within_reach", label: "Une récompense à portée de main" },
];

/** Which of the shop's customers (the composer and the newsletter editor): a segment and its one setting. */
export function SegmentFields({
  kind,
  onKind,
  tiers,
  tierId,
  onTierId,
  days,
  onDays,
  daysError,
}: {
  kind: SegmentKind;
  onKind: (kind: SegmentKind) => void;
  tiers: { id: string; name: string }[];
  tierId: string;
  onTierId: (id: string) => void;
  days: number;
  onDays: (days: number) => void;
  daysError?: string;
}) {
  return (
    <>
      <SelectField label="Destinataires" value={kind} onValue={(v) => onKind(v as SegmentKind)}>
        {SEGMENT_OPTIONS.map((o) => (
          <option key={o.kind} value={o.kind} disabled={o.kind === "vip" && tiers.length === 0}>
            {o.label}
          </option>
        ))}
      </SelectField>
      {kind === "vip" ? (
        <SelectField
          label="Niveau VIP"
          value={tierId}
          onValue={onTierId}
          options={tiers.map((t) => ({ value: t.id, label: t.name }))}
        />
      ) : null}
      {kind === "visited_within" || kind === "not_seen_for" ? (
        <NumberField
          label={kind === "visited_within" ? "Venus il y a moins de (jours)" : "Pas venus depuis (jours)"}
          min={1}
          max={730}
          value={days}
          onChange={(e) => onDays(Math.max(1, Math.min(730, Number(e.target.value) || 1)))}
          error={daysError}
        />
      ) : null}
    </>
  );
}
