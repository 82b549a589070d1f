// Where a mail went, as the mailer reports it: handed to the SMTP server, or kept in the outbox
// because no SMTP_URL is set (`outbox`) or the server refused it (`smtp_failed`). Pure, so the
// API document and the dashboard can name the values without loading the mailer.
export const MAIL_DELIVERIES = ['smtp', 'outbox', 'smtp_failed'] as const;
export type MailDelivery = (typeof MAIL_DELIVERIES)[number];
