import { and, desc, eq, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { shopRoleLabel } from "../../../domain/roles.ts";
import type { Deps } from "../../lib/context.ts";
import type { Db } from "../../db/client.ts";
import { invitation, member, organization, profiles, user } from "../../db/schema/index.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { recordAudit } from "../../lib/audit.ts";

/**
 * Staff invitations go through better-auth's organization plugin (its checks,
 * its invitation row, our French e-mail from auth.ts); the link is
 * /accept-invitation/{invitation id}. Errors come back in French.
 */
const BETTER_AUTH_MESSAGES: Record<string, { code: "CONFLICT" | "NOT_FOUND" | "FORBIDDEN" | "VALIDATION"; fr: string }> = {
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: { code: "CONFLICT", fr: "Cette personne fait déjà partie de l'équipe." },
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: { code: "CONFLICT", fr: "Une invitation est déjà en attente pour cette adresse." },
  INVITATION_NOT_FOUND: { code: "NOT_FOUND", fr: "Cette invitation n'existe pas, a expiré ou a déjà été utilisée." },
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION: {
    code: "FORBIDDEN",
    fr: "Cette invitation a été envoyée à une autre adresse e-mail : connectez-vous avec celle-ci.",
  },
  EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION: {
    code: "FORBIDDEN",
    fr: "Confirmez d'abord votre adresse e-mail, puis rouvrez l'invitation.",
  },
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION: { code: "FORBIDDEN", fr: "Vous ne pouvez pas inviter dans cette boutique." },
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE: { code: "FORBIDDEN", fr: "Vous ne pouvez pas inviter avec ce rôle." },
  YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION: { code: "FORBIDDEN", fr: "Vous ne pouvez pas annuler cette invitation." },
  MEMBER_NOT_FOUND: { code: "FORBIDDEN", fr: "Seuls les responsables membres de la boutique peuvent gérer l'équipe." },
  INVITATION_LIMIT_REACHED: { code: "CONFLICT", fr: "Trop d'invitations en attente : annulez-en avant d'en envoyer d'autres." },
  ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: { code: "CONFLICT", fr: "L'équipe de cette boutique est complète." },
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: { code: "CONFLICT", fr: "Le propriétaire ne peut pas être retiré." },
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER: { code: "FORBIDDEN", fr: "Vous ne pouvez pas retirer ce membre." },
};

function errorCodeOf(error: unknown): string | undefined {
  const body = (error as { body?: { code?: unknown; message?: unknown } }).body;
  if (typeof body?.code === "string") return body.code;
  if (typeof body?.message === "string") return body.message.split(":")[0]?.trim().toUpperCase().replace(/\W+/g, "_");
  return undefined;
}

async function viaBetterAuth<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = errorCodeOf(error);
    const known = code && Object.hasOwn(BETTER_AUTH_MESSAGES, code) ? BETTER_AUTH_MESSAGES[code] : undefined;
    if (known) throw new AppError(known.code, { message: `better-auth: ${code}`, userMessage: known.fr });
    if ((error as { statusCode?: number }).statusCode && (error as { statusCode: number }).statusCode < 500) {
      throw new AppError("VALIDATION", { message: `better-auth: ${code ?? "error"}`, userMessage: "Cette action n'a pas pu aboutir." });
    }
    throw error;
  }
}

/** Only a real owner/admin member can invite (better-auth checks it too); the platform admin is not one. */
function requireMember(access: ShopAccess) {
  if (access.role === "platform") {
    throw new AppError("FORBIDDEN", { message: "platform admin is not a member", userMessage: "Seuls les responsables de la boutique gèrent son équipe." });
  }
}

export async function listTeam(db: Db, access: ShopAccess) {
  const scope = shopScope(access);
  const members = await db
    .select({
      id: member.id,
      userId: member.userId,
      role: member.role,
      createdAt: member.createdAt,
      email: user.email,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
    })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .leftJoin(profiles, eq(profiles.id, member.userId))
    .where(eq(member.organizationId, scope))
    .orderBy(member.createdAt);
  const invitations = await db
    .select({ id: invitation.id, email: invitation.email, role: invitation.role, status: invitation.status, expiresAt: invitation.expiresAt, createdAt: invitation.createdAt })
    .from(invitation)
    .where(and(eq(invitation.organizationId, scope), eq(invitation.status, "pending"), sql`${invitation.expiresAt} > now()`))
    .orderBy(desc(invitation.createdAt));
  return {
    members: members.map((m) => ({ ...m, roleLabel: shopRoleLabel(m.role), isMe: m.userId === access.userId, createdAt: m.createdAt.toISOString() })),
    invitations: invitations.map((i) => ({
      ...i,
      role: i.role ?? "member",
      roleLabel: shopRoleLabel(i.role),
      expiresAt: i.expiresAt.toISOString(),
      createdAt: i.createdAt.toISOString(),
    })),
  };
}

export async function inviteStaff(deps: Deps, access: ShopAccess, headers: Headers, input: { email: string; role: "member" | "admin" }) {
  requireMember(access);
  const created = await viaBetterAuth(() =>
    deps.auth.api.createInvitation({ body: { email: input.email, role: input.role, organizationId: access.shopId, resend: true }, headers }),
  );
  await recordAudit(deps.db, { actorId: access.userId, shopId: access.shopId, action: "member.invite", target: input.email, details: { role: input.role } });
  return { id: created.id, email: created.email, role: input.role, expiresAt: new Date(created.expiresAt).toISOString() };
}

async function scopedInvitation(db: Db, access: ShopAccess, invitationId: string) {
  const [row] = await db
    .select({ id: invitation.id })
    .from(invitation)
    .where(and(eq(invitation.id, invitationId), eq(invitation.organizationId, shopScope(access))))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Invitation introuvable." });
}

export async function cancelStaffInvitation(deps: Deps, access: ShopAccess, headers: Headers, invitationId: string) {
  await scopedInvitation(deps.db, access, invitationId);
  requireMember(access);
  await viaBetterAuth(() => deps.auth.api.cancelInvitation({ body: { invitationId }, headers }));
}

export async function removeStaff(deps: Deps, access: ShopAccess, headers: Headers, memberId: string) {
  const [row] = await deps.db
    .select({ id: member.id, role: member.role, userId: member.userId })
    .from(member)
    .where(and(eq(member.id, memberId), eq(member.organizationId, shopScope(access))))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Membre introuvable." });
  if (row.role === "owner") throw new AppError("CONFLICT", { userMessage: "Le propriétaire ne peut pas être retiré." });
  requireMember(access);
  await viaBetterAuth(() => deps.auth.api.removeMember({ body: { memberIdOrEmail: memberId, organizationId: access.shopId }, headers }));
  await recordAudit(deps.db, { actorId: access.userId, shopId: access.shopId, action: "member.remove", target: row.userId, details: { role: row.role } });
}

/** /accept-invitation/{id}: what the invitation is, for the person who opened the link. */
export async function getInvitationDetails(db: Db, invitationId: string, viewerEmail: string) {
  const [row] = await db
    .select({
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      status: invitation.status,
      expiresAt: invitation.expiresAt,
      shopId: organization.id,
      shopName: organization.name,
      shopSlug: organization.slug,
      inviterFirstName: profiles.firstName,
      inviterName: user.name,
    })
    .from(invitation)
    .innerJoin(organization, eq(organization.id, invitation.organizationId))
    .innerJoin(user, eq(user.id, invitation.inviterId))
    .leftJoin(profiles, eq(profiles.id, invitation.inviterId))
    .where(eq(invitation.id, invitationId))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", { userMessage: BETTER_AUTH_MESSAGES.INVITATION_NOT_FOUND!.fr });
  const isExpired = row.expiresAt < new Date();
  return {
    id: row.id,
    shop: { id: row.shopId, name: row.shopName, slug: row.shopSlug },
    role: row.role ?? "member",
    roleLabel: shopRoleLabel(row.role),
    status: isExpired && row.status === "pending" ? ("expired" as const) : (row.status as "pending" | "accepted" | "rejected" | "canceled"),
    expiresAt: row.expiresAt.toISOString(),
    inviterName: row.inviterFirstName || row.inviterName || "L'équipe",
    isForMe: row.email.toLowerCase() === viewerEmail.toLowerCase(),
  };
}

export async function acceptStaffInvitation(deps: Deps, headers: Headers, invitationId: string) {
  const result = await viaBetterAuth(() => deps.auth.api.acceptInvitation({ body: { invitationId }, headers }));
  if (result) await recordAudit(deps.db, { actorId: result.member.userId, shopId: result.member.organizationId, action: "member.join", target: result.member.userId, details: { role: result.member.role } });
  return { shopId: result?.member.organizationId ?? null };
}

export async function rejectStaffInvitation(deps: Deps, headers: Headers, invitationId: string) {
  await viaBetterAuth(() => deps.auth.api.rejectInvitation({ body: { invitationId }, headers }));
}
