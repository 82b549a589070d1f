// A real SMTP server for the tests, with an HTTP window onto what it received:
// GET /messages?to=<address> → [{ to, subject, text, html, receivedAt }].
import http from 'node:http';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: number;
}

export interface MailCatcher {
  smtpUrl: string;
  httpUrl: string;
  stop(): Promise<void>;
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: CaughtMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const parsed = parseMessage(Buffer.concat(chunks).toString('utf8'));
        messages.push({ ...parsed, to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), receivedAt: Date.now() });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as { port: number }).port;

  const web = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const to = url.searchParams.get('to')?.toLowerCase();
    const found = to ? messages.filter((m) => m.to.includes(to)) : messages;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(found));
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  const webPort = (web.address() as { port: number }).port;

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    httpUrl: `http://127.0.0.1:${webPort}`,
    stop: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => web.close(() => resolve()));
    },
  };
}

// A small MIME reader: enough for what nodemailer sends (multipart/alternative, QP or base64).
function parseMessage(raw: string): { subject: string; text: string; html: string } {
  const { headers, body } = splitPart(raw);
  const subject = decodeHeader(headers['subject'] ?? '');
  const parts = collectParts(headers, body);
  return { subject, text: parts['text/plain'] ?? '', html: parts['text/html'] ?? '' };
}

function splitPart(raw: string) {
  const index = raw.search(/\r?\n\r?\n/);
  const head = index === -1 ? raw : raw.slice(0, index);
  const body = index === -1 ? '' : raw.slice(index).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function collectParts(headers: Record<string, string>, body: string): Record<string, string> {
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.startsWith('multipart/') && boundary) {
    const result: Record<string, string> = {};
    for (const section of body.split(`--${boundary}`).slice(1)) {
      if (section.startsWith('--')) break;
      const part = splitPart(section.replace(/^\r?\n/, ''));
      Object.assign(result, collectParts(part.headers, part.body));
    }
    return result;
  }
  const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  let decoded = body;
  if (encoding === 'quoted-printable') {
    decoded = Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  } else if (encoding === 'base64') {
    decoded = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { [type.split(';')[0]!.trim().toLowerCase()]: decoded };
}

function decodeHeader(value: string): string {
  return value
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    )
    .replace(/\?=\s+=\?/g, '');
}
