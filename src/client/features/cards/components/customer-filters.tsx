import type { ReactNode } from "react";
import { Field } from "../../../components/ui/field.tsx";

/** The customer lists' filter bar: a search (each new search starts from the first page), then the sort controls. */
export function CustomerFilters({
  search,
  onSearch,
  placeholder,
  children,
}: {
  search: string;
  onSearch: (search: string) => void;
  placeholder: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-3 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:flex-row sm:items-end dark:border-stone-800 dark:bg-stone-900">
      <Field
        label="Rechercher un client"
        className="flex-1"
        type="search"
        value={search}
        onValue={onSearch}
        placeholder={placeholder}
      />
      {children}
    </div>
  );
}
