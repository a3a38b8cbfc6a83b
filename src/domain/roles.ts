/**
 * One French name per shop role, everywhere (issue 12: the owner was « Gérant » on the profile and
 * « Propriétaire » in the team). better-auth's organisation roles: owner, admin (a manager who runs the
 * back-office with the owner), member (counter staff).
 */
export type ShopRole = "owner" | "admin" | "member";

export const SHOP_ROLE_LABELS_FR: Record<ShopRole, string> = {
  owner: "Propriétaire",
  admin: "Gérant",
  member: "Équipier",
};

const isShopRole = (role: string | null | undefined): role is ShopRole =>
  role === "owner" || role === "admin" || role === "member";

/** "Propriétaire", "Gérant", "Équipier" (an unknown role reads as staff, the least it can be). */
export const shopRoleLabel = (role: string | null | undefined) =>
  SHOP_ROLE_LABELS_FR[isShopRole(role) ? role : "member"];

/** "en tant que gérant", "en tant qu'équipier" (elided before a vowel). */
export function asShopRoleFr(role: string | null | undefined): string {
  const word = shopRoleLabel(role).toLowerCase();
  return /^[aeiouyéèêh]/.test(word) ? `en tant qu'${word}` : `en tant que ${word}`;
}
