import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Field } from "../../../components/ui/field.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { Section } from "../../../components/ui/section.tsx";

/**
 * A console view's list that a search narrows (shops, accounts): the search field, then the rows the platform
 * answers for it, the previous answer kept on screen while the next one loads.
 */
export function SearchList<D, T extends { id: string }>({
  id,
  title,
  label,
  search,
  itemsOf,
  empty,
  children,
}: {
  id: string;
  title: string;
  label: string;
  search: (q: string) => { queryKey: readonly unknown[]; queryFn: () => Promise<D> };
  itemsOf: (data: D) => T[];
  empty: string;
  children: (item: T) => ReactNode;
}) {
  const [q, setQ] = useState("");
  const list = useQuery({ ...search(q), placeholderData: keepPreviousData });
  return (
    <Section bare stack id={id} title={title}>
      <Field label={label} type="search" value={q} onValue={setQ} />
      <QueryState query={list}>
        {(data) =>
          itemsOf(data).length === 0 ? (
            <p>{empty}</p>
          ) : (
            <ul className="flex flex-col gap-2">{itemsOf(data).map((item) => children(item))}</ul>
          )
        }
      </QueryState>
    </Section>
  );
}
