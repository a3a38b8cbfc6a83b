/** One choice among a few, each a card with a title and a line of text (radio buttons underneath). */
export function ChoiceCards<V extends string>({
  legend,
  name,
  value,
  options,
  onChange,
  error,
  narrow = false,
}: {
  legend: string;
  name: string;
  value: V;
  options: readonly { value: V; title: string; text: string }[];
  onChange: (value: V) => void;
  error?: string;
  /** Two columns even on a phone, with smaller text. */
  narrow?: boolean;
}) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium text-stone-800 dark:text-stone-200">{legend}</legend>
      <div className={`grid gap-2 ${narrow ? "grid-cols-2" : "grid-cols-1 sm:grid-cols-2"}`}>
        {options.map((option) => (
          <label
            key={option.value}
            className={`flex cursor-pointer flex-col gap-1 rounded-xl border p-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${
              value === option.value
                ? "border-brand-700 bg-brand-50 dark:bg-stone-800"
                : "border-stone-200 dark:border-stone-700"
            }`}
          >
            <span className="flex items-center gap-2 font-semibold">
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={value === option.value}
                onChange={() => onChange(option.value)}
                className="size-4 accent-brand-700"
              />
              {option.title}
            </span>
            <span className={`${narrow ? "text-xs" : "text-sm"} text-stone-600 dark:text-stone-400`}>
              {option.text}
            </span>
          </label>
        ))}
      </div>
      {error ? <p className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">{error}</p> : null}
    </fieldset>
  );
}
