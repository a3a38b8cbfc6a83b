import type { ReactNode } from "react";

/** Long-form text: readable measure, spacing and link colours for Markdown or JSX content. */
const PROSE_CLASS = [
  "text-[1.0625rem] leading-relaxed text-stone-800 dark:text-stone-200",
  "[&_h2]:mt-8 [&_h2]:mb-3 [&_h2]:text-xl [&_h2]:font-bold [&_h2]:tracking-tight [&_h2]:text-stone-900 dark:[&_h2]:text-stone-50",
  "[&_h3]:mt-6 [&_h3]:mb-2 [&_h3]:text-lg [&_h3]:font-semibold",
  "[&_p]:my-3 [&_ul]:my-3 [&_ol]:my-3 [&_ul]:list-disc [&_ol]:list-decimal [&_ul]:pl-6 [&_ol]:pl-6 [&_li]:my-1.5 [&_li]:pl-1",
  "[&_a]:font-medium [&_a]:text-brand-800 [&_a]:underline [&_a]:underline-offset-2 dark:[&_a]:text-brand-200",
  "[&_strong]:font-semibold [&_strong]:text-stone-900 dark:[&_strong]:text-stone-50",
  "[&_blockquote]:border-l-4 [&_blockquote]:border-brand-200 [&_blockquote]:pl-4 [&_blockquote]:italic",
  "[&_code]:rounded [&_code]:bg-stone-100 [&_code]:px-1 dark:[&_code]:bg-stone-800",
  "[&_hr]:my-8 [&_hr]:border-stone-200 [&_img]:rounded-xl",
  "[&>*:first-child]:mt-0",
].join(" ");

export function Prose({ children }: { children: ReactNode }) {
  return <div className={PROSE_CLASS}>{children}</div>;
}

/** HTML made safe by the server (escaped raw HTML, filtered link addresses: src/server/modules/content/markdown.ts). */
export function SafeHtml({ html }: { html: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered and sanitised server-side from our own Markdown files.
  return <div className={PROSE_CLASS} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A section of a legal page: a numbered heading and its text. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <h2>{title}</h2>
      {children}
    </section>
  );
}
