import nodemailer, { type Transporter } from "nodemailer";
import { desc } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { mailOutbox } from "../../db/schema/app.ts";
import type { Logger } from "../../lib/logger.ts";
import type { MailContent, MailKind } from "./templates.ts";

/** Marketing mail (modules/messages/channels/email-driver.ts): a newsletter, or a composer message's e-mail copy. */
export type MarketingKind = "newsletter" | "message";

export type OutgoingMail = { to: string; kind: MailKind | MarketingKind } & MailContent & {
  /** Extra headers (List-Unsubscribe…), sent as given (ASCII, not re-encoded). */
  headers?: Record<string, string>;
  /** The Message-ID, without the angle brackets (a bounce report names it). */
  messageId?: string;
};

/**
 * What became of a mail: "sent" (the SMTP server accepted it), "kept" (no SMTP: in the
 * outbox only), "failed" — `permanent` when the server answered 5xx (the address does
 * not exist, the mailbox refuses: a hard bounce, never retried).
 */
export type MailResult =
  | { status: "sent" | "kept" }
  | { status: "failed"; permanent: boolean; error: string };

export type Mailer = {
  /** Older wrappers (tests, auth's fire-and-forget) may answer nothing: read it as "kept". */
  send: (message: OutgoingMail) => Promise<MailResult | void>;
};

/** An SMTP answer 5xx (RFC 5321 §4.2.1: permanent negative completion). */
function isPermanentSmtpError(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

/**
 * Sends over SMTP when SMTP_URL is set. Every message is also recorded in the
 * outbox; without SMTP it stays there, readable by the platform admin in the app.
 */
export function createMailer(options: { db: Db; smtpUrl?: string; from: string; logger: Logger }): Mailer {
  const transport: Transporter | undefined = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : undefined;
  return {
    async send(message) {
      let status: "kept" | "sent" | "failed" = "kept";
      let error: string | undefined;
      let permanent = false;
      if (transport) {
        try {
          await transport.sendMail({
            from: options.from,
            to: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html,
            ...(message.messageId ? { messageId: `<${message.messageId}>` } : {}),
            ...(message.headers
              ? {
                  headers: Object.fromEntries(
                    Object.entries(message.headers).map(([k, v]) => [k, { prepared: true, value: v }]),
                  ),
                }
              : {}),
          });
          status = "sent";
        } catch (e) {
          status = "failed";
          error = e instanceof Error ? e.message : String(e);
          permanent = isPermanentSmtpError(e);
          // A mailbox that does not exist is the recipient's fact, not the app's failure: a warning.
          (permanent ? options.logger.warn : options.logger.error)("mail: SMTP send failed", {
            kind: message.kind,
            error,
            permanent,
          });
        }
      }
      await options.db.insert(mailOutbox).values({
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        kind: message.kind,
        status,
        error,
      });
      return status === "failed" ? { status, permanent, error: error ?? "" } : { status };
    },
  };
}

export async function listOutbox(db: Db, limit = 100) {
  return db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.to,
      subject: mailOutbox.subject,
      text: mailOutbox.text,
      kind: mailOutbox.kind,
      status: mailOutbox.status,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.createdAt))
    .limit(limit);
}
