// Outgoing mail: SMTP when SMTP_URL is set (nodemailer), else the local outbox table, read on the
// dashboard's Outbox page by the mail's recipient (and an invitation's inviter, `senderUserId`);
// the operator sees only that it was written (lib/mail/outbox.ts). Bodies are never logged: they carry links.
import nodemailer, { type Transporter } from 'nodemailer';
import { db } from '../db';
import { log } from '../log';
import type { MailDelivery } from './delivery';
import { settings } from '../config/settings';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** `senderUserId`: who may read the kept mail besides its recipient (only invitations set it: the inviter). */
export interface MailOptions {
  senderUserId?: string;
}

let transport: { url: string; transporter: Transporter } | undefined;

/** Sends or keeps the mail, and says which: callers report it, none guesses from the environment. */
export async function sendMail(mail: Mail, options: MailOptions = {}): Promise<MailDelivery> {
  const url = settings().smtpUrl;
  if (!url) {
    await keep(mail, options);
    log.info({ event: 'mail-outbox', subject: mail.subject }, 'no SMTP_URL: mail written to the outbox (dashboard → Outbox)');
    return 'outbox';
  }
  if (transport?.url !== url) {
    transport = { url, transporter: nodemailer.createTransport(url, { from: settings().mailFrom }) };
  }
  try {
    await transport.transporter.sendMail(mail);
    return 'smtp';
  } catch (error) {
    // The action that sent the mail stands; the user can ask for it again (resend).
    log.error({ event: 'mail-failed', subject: mail.subject, err: (error as Error).message }, 'sending mail failed');
    await keep(mail, options);
    return 'smtp_failed';
  }
}

/** Writes the mail to the outbox, `to` lower-cased: it is matched against the reader's account e-mail. */
async function keep(mail: Mail, options: MailOptions): Promise<void> {
  await db.mailOutbox.create({ data: { ...mail, to: mail.to.trim().toLowerCase(), senderUserId: options.senderUserId ?? null } });
}

export function publicWebUrl(): string {
  return (settings().publicWebUrl ?? `http://localhost:${settings().webPort}`).replace(/\/+$/, '');
}
