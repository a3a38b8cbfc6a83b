import { type AddressInfo, createServer } from "node:net";
import { SMTPServer } from "smtp-server";
import { SOON } from "./timing.ts";

export type CapturedMail = { to: string[]; subject: string; text: string; raw: string; /** Received (ms epoch). */ at: number };

/** A real local SMTP server that keeps what it receives (STACK.md settings). */
export async function startSmtp(options: { rejectRecipient?: (address: string) => boolean } = {}) {
  const mails: CapturedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // A mailbox that does not exist: 550, a permanent failure (a hard bounce).
    onRcptTo(address, _session, callback) {
      if (options.rejectRecipient?.(address.address.toLowerCase())) {
        const error = Object.assign(new Error("5.1.1 No such user here"), { responseCode: 550 });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: decodeHeader(/^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1] ?? ""),
          text: decodeBody(raw),
          raw,
          at: Date.now(),
        });
        for (const w of waiters.splice(0)) w();
        callback();
      });
    },
  });
  // A sender killed mid-conversation (the tests that SIGKILL a server process) resets its connection: that is the
  // point of those tests, not a failure of the run. smtp-server reports it as the server's 'error' event, which,
  // with no listener, would be an uncaught exception.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "ECONNRESET" || error.code === "EPIPE") return;
    console.warn("test SMTP server:", error);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));

  /** Waits for the first mail to `to` matching `match` (after `since` mails). */
  async function waitForMail(to: string, match: (m: CapturedMail) => boolean = () => true, timeoutMs = SOON) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = mails.find((m) => m.to.includes(to.toLowerCase()) && match(m));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitForMail,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** First http(s) link in a mail's text. */
export function linkIn(mail: CapturedMail, contains = "http"): string {
  const m = mail.text.match(/https?:\/\/[^\s<>"]+/g)?.find((l) => l.includes(contains));
  if (!m) throw new Error(`no link containing ${contains} in: ${mail.text}`);
  return m;
}

function decodeHeader(value: string): string {
  return value
    .replace(/\r\n[ \t]/g, " ")
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, enc: string, data: string) =>
      enc.toLowerCase() === "b"
        ? Buffer.from(data, "base64").toString("utf8")
        : decodeQ(data.replace(/_/g, " ")),
    )
    .replace(/\?=\s+=\?/g, "");
}

function decodeQ(s: string): string {
  return Buffer.from(s.replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))), "latin1").toString("utf8");
}

/** The text/plain part, quoted-printable decoded. */
function decodeBody(raw: string): string {
  const plain = /Content-Type: text\/plain[\s\S]*?\r\n\r\n([\s\S]*?)(?:\r\n--|$)/i.exec(raw);
  const body = plain?.[1] ?? raw;
  const isQp = /Content-Transfer-Encoding: quoted-printable/i.test(raw);
  return isQp ? decodeQ(body.replace(/=\r\n/g, "")) : body;
}

/** The text/html part, decoded (quoted-printable or base64). */
export function htmlOf(mail: CapturedMail): string {
  const part = /Content-Type: text\/html[^\r\n]*\r\n((?:[^\r\n]+\r\n)*)\r\n([\s\S]*?)(?:\r\n--|$)/i.exec(mail.raw);
  if (!part) return "";
  const [, headers = "", body = ""] = part;
  if (/Content-Transfer-Encoding: base64/i.test(headers)) return Buffer.from(body, "base64").toString("utf8");
  if (/Content-Transfer-Encoding: quoted-printable/i.test(headers)) return decodeQ(body.replace(/=\r\n/g, ""));
  return body;
}
