import { lazy, Suspense } from "react";
import { Skeleton } from "../components/ui/skeleton.tsx";
import ShopDashboard from "../features/shops/pages/dashboard-page.tsx";
import { useMe } from "../lib/me.ts";

// The platform admin's console is for one person: loaded when they are the one here. A shop's dashboard, what
// nearly everyone opening /admin sees, comes with this page (the server preloads it with the route's code) rather
// than once the account has said who is here: one round trip less before the figures (issue 25 row 11).
const PlatformDashboard = lazy(() => import("../features/admin/pages/platform-page.tsx"));

/** /admin: the platform admin sees the platform at a glance; a shop's owner their shop's dashboard. */
export default function AdminHomePage() {
  const me = useMe();
  if (me.isPending) return <Skeleton />;
  if (!me.data?.user.isAdmin) return <ShopDashboard />;
  return (
    <Suspense fallback={<Skeleton />}>
      <PlatformDashboard />
    </Suspense>
  );
}
