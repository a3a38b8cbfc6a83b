import { useQuery } from "@tanstack/react-query";
import { adminKeys } from "../features/admin/api/keys.ts";
import { api, unwrap } from "../lib/api-client.ts";

/** GET /api/admin/notices: what the operator must still do (platform admin only). */
const getNotices = () => unwrap(api.admin.notices.$get()).then((r) => r.notices);

/**
 * The platform admin's to-do for this instance, above every back-office page: for now, a legal notice still
 * showing placeholders (the server also says so in its log at start).
 */
export function OperatorNotice() {
  const notices = useQuery({ queryKey: adminKeys.notices(), queryFn: getNotices, staleTime: 5 * 60_000 });
  if (!notices.data?.length) return null;
  return (
    // A named section is a landmark: the notice is not left outside them (issue 25 row 17).
    <section aria-label="À faire sur cette plateforme" className="mx-auto max-w-3xl px-4 pt-4">
      {notices.data.map((n) => (
        <p
          key={n.id}
          role="status"
          className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
          data-testid="operator-notice"
        >
          {n.message}
        </p>
      ))}
    </section>
  );
}
