import nodemailer, { type Transporter } from "nodemailer";
import { desc } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { mailOutbox } from "../../db/schema/app.ts";
import type { Logger } from "../../lib/logger.ts";
import type { MailContent, MailKind } from "./templates.ts";

export type Mailer = {
  send: (message: { to: string; kind: MailKind } & MailContent) => Promise<void>;
};

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
      if (transport) {
        try {
          await transport.sendMail({
            from: options.from,
            to: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html,
          });
          status = "sent";
        } catch (e) {
          status = "failed";
          error = e instanceof Error ? e.message : String(e);
          options.logger.error("mail: SMTP send failed", { kind: message.kind, error });
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
