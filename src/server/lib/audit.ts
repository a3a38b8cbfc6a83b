import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { auditLog } from "../db/schema/index.ts";

/**
 * The audit log (SPEC §6, /admin/logs): one row per privileged action — who, what, on what, from where.
 * Append-only: nothing in the application updates or deletes these rows.
 */

/** A database or a transaction of one. */
type Writer = Pick<Db, "insert" | "execute">;

type AuditEntry = {
  actorId: string | null;
  shopId?: string | null;
  /** A dotted verb, see AUDIT_ACTIONS. */
  action: AuditAction;
  target?: string | null;
  details?: Record<string, unknown> | null;
  ip?: string | null;
};

/** Every action the log records, with its French label for /admin/logs. */
export const AUDIT_ACTIONS = {
  "points.adjust": "Correction de solde",
  "shop.suspend": "Boutique suspendue",
  "shop.reactivate": "Boutique réactivée",
  "member.invite": "Invitation d'un membre",
  "member.remove": "Membre retiré",
  "member.join": "Membre ajouté",
  "export.customers": "Export des clients",
  "export.scans": "Export des passages",
  "contest.draw": "Tirage au sort",
  "admin.signin": "Connexion administrateur",
  "session.revoke": "Session déconnectée",
  "user.ban": "Compte banni",
  "user.unban": "Compte débanni",
  "user.signout": "Déconnexion partout",
  "user.resend": "Lien de confirmation renvoyé",
  "sms.budget": "Budget SMS accordé",
  "sms.budget_request": "Budget SMS demandé",
  "sms.phone_verified": "Numéro de test SMS vérifié",
  "member.role": "Rôle d'un membre modifié",
  "settings.update": "Réglages modifiés",
  "catalogue.archive": "Récompense ou lot archivé",
  "export.winnings": "Export des lots gagnés",
  "export.personal": "Export de ses données (RGPD)",
  "export.shop": "Export d'une boutique",
  "account.delete": "Compte supprimé",
  "account.purge_warning": "Compte averti avant purge",
  "account.purge": "Compte purgé (inactivité)",
  "shop.delete": "Boutique supprimée",
  "export.prepaid": "Export des carnets et cartes cadeaux",
  "prepaid.cancel": "Vente ou débit de carnet ou carte cadeau annulé",
  "import.customers": "Import de clients et de soldes",
  "till.connect": "Caisse connectée",
  "till.disconnect": "Caisse déconnectée",
  "tablet.create": "Tablette de comptoir ajoutée",
  "tablet.revoke": "Tablette de comptoir révoquée",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export async function recordAudit(db: Writer, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actorId,
    shopId: entry.shopId ?? null,
    action: entry.action,
    target: entry.target ?? null,
    details: entry.details ?? null,
    ip: entry.ip ?? null,
  });
}

/** A new session: logged when its user is the platform admin (one statement, nothing for anyone else). */
export async function recordAdminSignIn(
  db: Writer,
  session: { userId: string; ipAddress?: string | null },
): Promise<void> {
  await db.execute(sql`
    insert into audit_log (actor_id, action, target, ip)
    select u.id, 'admin.signin', u.id, ${session.ipAddress ?? null} from "user" u where u.id = ${session.userId} and u.role = 'admin'`);
}
