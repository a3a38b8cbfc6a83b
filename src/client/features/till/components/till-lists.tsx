import { Fragment, type ReactNode } from "react";
import { Checkbox } from "../../../components/ui/field.tsx";

/** Boxes for the choices of one `name` (an API key's scopes, a webhook's events), all ticked at first, and their error. */
export function ChoiceBoxes<V extends string>({
  name,
  legend,
  labels,
  error,
}: {
  name: string;
  legend: string;
  labels: Record<V, string>;
  error?: string;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-semibold">{legend}</legend>
      {(Object.keys(labels) as V[]).map((value) => (
        <Checkbox key={value} name={name} value={value} defaultChecked label={labels[value]} />
      ))}
      {error ? <p className="text-sm text-red-700 dark:text-red-300">{error}</p> : null}
    </fieldset>
  );
}

/** What a shop has set up (keys, addresses, tablets): a labelled list, or the sentence saying there is none yet. */
export function SetUpList<T extends { id: string }>({
  items,
  label,
  none,
  children,
}: {
  items: T[];
  label: string;
  none: string;
  children: (item: T) => ReactNode;
}) {
  if (items.length === 0) return <p className="text-sm text-stone-700 dark:text-stone-300">{none}</p>;
  return (
    <ul aria-label={label}>
      {items.map((item) => (
        <Fragment key={item.id}>{children(item)}</Fragment>
      ))}
    </ul>
  );
}
