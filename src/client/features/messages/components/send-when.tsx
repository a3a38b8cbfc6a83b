import { Field } from "../../../components/ui/field.tsx";

type When = "now" | "later";

/** « Quand ? »: send now, or at a date and time (the composer and the newsletter editor). */
export function SendWhen({
  when,
  onWhen,
  at,
  onAt,
  error,
}: {
  when: When;
  onWhen: (when: When) => void;
  at: string;
  onAt: (at: string) => void;
  error?: string;
}) {
  return (
    <>
      <fieldset className="flex min-w-0 flex-col gap-2">
        <legend className="mb-2 text-lg font-semibold">Quand ?</legend>
        {(
          [
            ["now", "Maintenant"],
            ["later", "Plus tard"],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex items-center gap-2">
            <input
              type="radio"
              name="when"
              checked={when === value}
              onChange={() => onWhen(value)}
              className="size-5 accent-brand-700"
            />
            {label}
          </label>
        ))}
      </fieldset>
      {when === "later" ? (
        <Field label="Date et heure d'envoi" type="datetime-local" value={at} onValue={onAt} error={error} />
      ) : null}
    </>
  );
}
