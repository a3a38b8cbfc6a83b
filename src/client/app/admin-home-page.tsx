import { lazy, Suspense } from "react";
import { PageSkeleton } from "../components/back-office/back-office-page.tsx";
import { useMe } from "../lib/me.ts";

const ShopDashboard = lazy(() => import("../features/shops/pages/dashboard-page.tsx"));
const PlatformDashboard = lazy(() => import("../features/admin/pages/platform-page.tsx"));

/** /admin: the platform admin sees the platform at a glance; a shop's owner their shop's dashboard. */
export default function AdminHomePage() {
  const me = useMe();
  if (me.isPending) return <PageSkeleton />;
  return (
    <Suspense fallback={<PageSkeleton />}>{me.data?.user.isAdmin ? <PlatformDashboard /> : <ShopDashboard />}</Suspense>
  );
}
