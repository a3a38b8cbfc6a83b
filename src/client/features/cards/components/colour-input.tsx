export function ColourInput({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label className="flex items-center gap-3 text-sm font-medium text-stone-800 dark:text-stone-200">
        <input
          type="color"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className="h-11 w-14 cursor-pointer rounded-lg border border-stone-300 bg-white p-1 dark:border-stone-700"
        />
        <span>
          {label}
          <span className="block font-mono text-xs text-stone-600 uppercase dark:text-stone-400">{value}</span>
        </span>
      </label>
      {error ? <p className="text-sm font-medium text-red-700 dark:text-red-400">{error}</p> : null}
    </div>
  );
}
