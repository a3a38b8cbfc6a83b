import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  CONSENT_CHANNELS,
  CONSENT_WORDING,
  type SignUpInput,
  safeRedirect,
} from "../../../domain/schemas/accounts.ts";
import type { profileSchema } from "../../../domain/schemas/profile.ts";
import { AppError } from "../../../domain/errors.ts";
import type { Deps } from "../../lib/context.ts";
import type { Db } from "../../db/client.ts";
import { forgetUser } from "../../lib/session-cache.ts";
import { consents, member, organization, profiles, user } from "../../db/schema/index.ts";
import { mailTemplates } from "../mail/templates.ts";
import { consentSql } from "../messages/consent.ts";

/**
 * Sign-up that answers alike whether the address is known or not: a known
 * address gets an e-mail telling its owner, an unknown one a confirmation link.
 * Both paths hash the password (the same work, the same time: issue 8, row 6) and
 * send their mail after the answer. Simultaneous sign-ups with one new address make
 * one account; the others are answered as for a known address (row 4).
 */
export async function signUp(
  deps: Deps,
  input: SignUpInput & { redirect?: string },
): Promise<{ status: "check-email" }> {
  if (await accountExists(deps.db, input.email)) {
    await (await deps.auth.$context).password.hash(input.password);
    tellExistingAccount(deps, input.email);
    return { status: "check-email" };
  }
  try {
    await deps.auth.api.signUpEmail({
      body: { email: input.email, password: input.password, name: "", callbackURL: confirmCallback(input.redirect) },
    });
  } catch (error) {
    // Another sign-up with this address created the account in between (the unique e-mail refused this one).
    if (!(await accountExists(deps.db, input.email))) throw error;
    tellExistingAccount(deps, input.email);
  }
  return { status: "check-email" };
}

async function accountExists(db: Db, email: string): Promise<boolean> {
  const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
  return Boolean(existing);
}

/** The "you already have an account" mail, sent after the answer (a failure is logged). */
function tellExistingAccount(deps: Deps, email: string): void {
  const url = `${deps.env.APP_URL}/mot-de-passe-perdu?email=${encodeURIComponent(email)}`;
  deps.mailer
    .send({ to: email, kind: "existing-account", ...mailTemplates["existing-account"]({ url }) })
    .catch((error: unknown) => {
      deps.logger.error("mail: send failed", {
        kind: "existing-account",
        error: error instanceof Error ? error.message : String(error),
      });
    });
}

/**
 * Where the confirmation link lands: /confirm?from=email (so the page tells a link opened twice from /confirm
 * opened without any link), carrying a safe `redirect` for after the profile step.
 */
export function confirmCallback(redirect: string | undefined): string {
  const target = safeRedirect(redirect, "");
  return target && target !== "/"
    ? `/confirm?from=email&redirect=${encodeURIComponent(target)}`
    : "/confirm?from=email";
}

type Membership = { shopId: string; shopName: string; shopSlug: string; role: string };

export async function getMe(db: Db, userId: string) {
  const [row] = await db
    .select({
      id: user.id,
      email: user.email,
      emailVerified: user.emailVerified,
      name: user.name,
      role: user.role,
      twoFactorEnabled: user.twoFactorEnabled,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      birthday: profiles.birthday,
      postalCode: profiles.postalCode,
      phone: profiles.phone,
    })
    .from(user)
    .leftJoin(profiles, eq(profiles.id, user.id))
    .where(eq(user.id, userId))
    .limit(1);
  if (!row) return null;
  const memberships: Membership[] = await db
    .select({ shopId: organization.id, shopName: organization.name, shopSlug: organization.slug, role: member.role })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(eq(member.userId, userId));
  const consentState = await getConsents(db, userId);
  return {
    user: {
      id: row.id,
      email: row.email,
      emailVerified: row.emailVerified,
      name: row.name,
      isAdmin: row.role === "admin",
      twoFactorEnabled: Boolean(row.twoFactorEnabled),
    },
    profile: {
      firstName: row.firstName,
      lastName: row.lastName,
      birthday: row.birthday,
      postalCode: row.postalCode,
      phone: row.phone,
      isComplete: Boolean(row.firstName && row.lastName),
      consents: consentState,
    },
    memberships,
  };
}

/** The latest decision per channel (messages/consent.ts); no row means never given. */
async function getConsents(db: Db, userId: string) {
  const me = sql`${userId}`;
  const [row] = (
    await db.execute<{ email: boolean; sms: boolean; push: boolean }>(
      sql`select ${consentSql(me, "email")} as email, ${consentSql(me, "sms")} as sms, ${consentSql(me, "push")} as push`,
    )
  ).rows;
  return { email: row?.email ?? false, sms: row?.sms ?? false, push: row?.push ?? false };
}

export async function saveProfile(db: Db, userId: string, input: ProfileOutput) {
  await db.transaction(async (tx) => {
    await tx
      .insert(profiles)
      .values({
        id: userId,
        firstName: input.firstName,
        lastName: input.lastName,
        birthday: input.birthday,
        postalCode: input.postalCode,
        phone: input.phone ?? null,
      })
      .onConflictDoUpdate({
        target: profiles.id,
        set: {
          firstName: input.firstName,
          lastName: input.lastName,
          birthday: input.birthday,
          postalCode: input.postalCode,
          ...(input.phone !== undefined ? { phone: input.phone } : {}),
          updatedAt: sql`now()`,
        },
      });
    if (input.consents.sms) {
      // SMS consent needs a number (a form of an older client sends none: the stored one counts).
      const [stored] = await tx.select({ phone: profiles.phone }).from(profiles).where(eq(profiles.id, userId));
      if (!stored?.phone) {
        throw new AppError("VALIDATION", {
          userMessage: "Indiquez votre numéro de mobile pour recevoir des SMS.",
          fields: { phone: "Indiquez votre numéro de mobile pour recevoir des SMS." },
        });
      }
    }
    await tx
      .update(user)
      .set({ name: `${input.firstName} ${input.lastName}` })
      .where(eq(user.id, userId));
    const current = await getConsents(tx as unknown as Db, userId);
    const hasRows = await tx.select({ id: consents.id }).from(consents).where(eq(consents.userId, userId)).limit(1);
    // Record a row only when a decision changes (or the first time), with the wording shown.
    const changes = CONSENT_CHANNELS.filter((ch) => hasRows.length === 0 || current[ch] !== input.consents[ch]);
    if (changes.length > 0) {
      await tx.insert(consents).values(
        changes.map((channel) => ({
          userId,
          channel,
          granted: input.consents[channel],
          wording: CONSENT_WORDING[channel],
        })),
      );
    }
  });
  // The user row changed outside better-auth: the session cache must not keep the old name.
  forgetUser(db, userId);
}

type ProfileOutput = z.output<typeof profileSchema>;

export async function touchLastSeen(db: Db, userId: string): Promise<void> {
  await db.update(profiles).set({ lastSeen: sql`now()` }).where(eq(profiles.id, userId));
}
