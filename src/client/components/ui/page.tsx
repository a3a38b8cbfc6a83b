import type { ReactNode } from "react";

/** The body of a page: a heading, an optional lead, then content. */
export function Page({ title, lead, children, wide = false }: { title: string; lead?: ReactNode; children?: ReactNode; wide?: boolean }) {
  return (
    <div className={`mx-auto w-full px-5 pb-8 pt-6 ${wide ? "max-w-3xl" : "max-w-md"}`}>
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      {lead ? <p className="mt-2 text-stone-600 dark:text-stone-400">{lead}</p> : null}
      <div className="mt-6 flex flex-col gap-5">{children}</div>
    </div>
  );
}

export function Card({ children, className = "" }: { children: ReactNode; className?: string }) {
  return <section className={`rounded-2xl border border-stone-200 bg-white p-5 shadow-sm dark:border-stone-800 dark:bg-stone-900 ${className}`}>{children}</section>;
}
