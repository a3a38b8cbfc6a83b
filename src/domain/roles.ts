/**
 * One French name per shop role, everywhere (issue 12: the owner was « Gérant » on the profile and
 * « Propriétaire » in the team). better-auth's organisation roles: owner, admin (a manager who runs the
 * back-office with the owner), member (counter staff).
 */
type ShopRole = "owner" | "admin" | "member";

export const SHOP_ROLE_LABELS_FR: Record<ShopRole, string> = {
  owner: "Propriétaire",
  // Words that fit a woman as well as a man (issue 25 row 13: Léa was called « Équipier »).
  admin: "Responsable",
  member: "Membre de l'équipe",
};

const isShopRole = (role: string | null | undefined): role is ShopRole =>
  role === "owner" || role === "admin" || role === "member";

/** "Propriétaire", "Responsable", "Membre de l'équipe" (an unknown role reads as staff, the least it can be). */
export const shopRoleLabel = (role: string | null | undefined) =>
  SHOP_ROLE_LABELS_FR[isShopRole(role) ? role : "member"];

/** "en tant que responsable", "en tant que membre de l'équipe" (elided before a vowel). */
export function asShopRoleFr(role: string | null | undefined): string {
  const word = shopRoleLabel(role).toLowerCase();
  return /^[aeiouyéèêh]/.test(word) ? `en tant qu'${word}` : `en tant que ${word}`;
}
