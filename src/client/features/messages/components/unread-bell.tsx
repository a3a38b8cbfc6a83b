import { Link } from "react-router";
import { plural } from "../../../../domain/format.ts";
import { useUnread } from "../api/get-inbox.ts";

/** The header's way to the inbox, with the unread count (kept fresh by the live stream). */
export function UnreadBell() {
  const { data: unread = 0 } = useUnread(true);
  const label =
    unread > 0 ? `Notifications : ${plural(unread, "message non lu", "messages non lus")}` : "Notifications";
  return (
    <Link
      to="/notifications"
      aria-label={label}
      className="relative flex size-11 items-center justify-center rounded-full text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800"
    >
      <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {unread > 0 ? (
        <span
          data-testid="unread-count"
          className="absolute right-0.5 top-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs font-bold leading-5 text-white"
        >
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </Link>
  );
}
