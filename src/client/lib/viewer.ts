import type { Viewer } from "../../domain/routes.ts";
import type { Me } from "./me.ts";

export function viewerOf(me: Me | null | undefined): Viewer {
  return {
    isSignedIn: Boolean(me),
    isAdmin: Boolean(me?.user.isAdmin),
    // A shop's managers (better-auth role "admin") run the back-office with its owner.
    isOwner: Boolean(me?.memberships.some((m) => m.role === "owner" || m.role === "admin")),
    isStaff: Boolean(me?.memberships.length),
  };
}
