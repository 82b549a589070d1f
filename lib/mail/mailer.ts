// Outgoing mail: SMTP when SMTP_URL is set (nodemailer), else the local outbox table, which the
// operator reads on the dashboard's Outbox page. Message bodies are never logged: they carry links.
import nodemailer, { type Transporter } from 'nodemailer';
import { db } from '../db';
import { log } from '../log';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

let transport: Transporter | undefined;

export async function sendMail(mail: Mail): Promise<void> {
  const url = process.env.SMTP_URL;
  if (!url) {
    await db.mailOutbox.create({ data: mail });
    log.info({ event: 'mail-outbox', subject: mail.subject }, 'no SMTP_URL: mail written to the outbox (dashboard → Outbox)');
    return;
  }
  transport ??= nodemailer.createTransport(url, { from: process.env.MAIL_FROM ?? 'Browser Router <no-reply@localhost>' });
  try {
    await transport.sendMail(mail);
  } catch (error) {
    // The action that sent the mail stands; the user can ask for it again (resend).
    log.error({ event: 'mail-failed', subject: mail.subject, err: (error as Error).message }, 'sending mail failed');
    await db.mailOutbox.create({ data: mail });
  }
}

export function publicWebUrl(): string {
  return (process.env.PUBLIC_WEB_URL ?? `http://localhost:${process.env.WEB_PORT ?? 3000}`).replace(/\/$/, '');
}
