import type { ReactNode } from "react";
import { Notice } from "../../../components/ui/notice.tsx";

/** A secret the server shows once (an API key, a webhook secret, the receipt key), selectable whole. */
export function ShownOnce({ label, value, children }: { label: string; value: string; children?: ReactNode }) {
  return (
    <Notice tone="success">
      <p className="font-semibold">{label}</p>
      <p className="mt-1">Copiez-la maintenant : elle ne sera plus affichée.</p>
      <code className="mt-2 block break-all rounded-lg bg-white px-3 py-2 font-mono text-sm text-stone-900 select-all dark:bg-stone-950 dark:text-stone-100">
        {value}
      </code>
      {children}
    </Notice>
  );
}
