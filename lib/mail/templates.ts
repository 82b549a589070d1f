import type { Mail } from './mailer';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout(lines: string[], link: string, action: string): string {
  const body = lines.map((l) => `<p>${escape(l)}</p>`).join('');
  return `<div style="font-family:system-ui,sans-serif;max-width:520px">${body}<p><a href="${escape(link)}" style="background:#111827;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escape(action)}</a></p><p style="color:#6b7280;font-size:12px">Or open this link: ${escape(link)}</p></div>`;
}

export function verificationMail(to: string, name: string, link: string): Mail {
  const lines = [`Hi ${name},`, 'Confirm your e-mail address to finish setting up your Browser Router account. The link is valid for 24 hours.'];
  return { to, subject: 'Confirm your e-mail address', text: `${lines.join('\n\n')}\n\n${link}\n`, html: layout(lines, link, 'Confirm e-mail') };
}

export function invitationMail(to: string, inviter: string, workspace: string, role: string, link: string): Mail {
  const lines = [
    `${inviter} invited you to join the workspace "${workspace}" on Browser Router as ${role === 'admin' ? 'an admin' : 'a member'}.`,
    'The invitation is valid for 7 days.',
  ];
  return { to, subject: `${inviter} invited you to ${workspace}`, text: `${lines.join('\n\n')}\n\n${link}\n`, html: layout(lines, link, 'Accept invitation') };
}

export function passwordResetMail(to: string, name: string, link: string): Mail {
  const lines = [
    `Hi ${name},`,
    'Someone asked to reset the password of your Browser Router account. Choose a new one with the link below. It is valid for one hour and works once; a newer request replaces it.',
    'Resetting signs you out everywhere and revokes your account tokens. If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ];
  return { to, subject: 'Reset your password', text: `${lines.join('\n\n')}\n\n${link}\n`, html: layout(lines, link, 'Choose a new password') };
}

/** Sent after any password change, so that a change the owner did not make does not go unnoticed. */
export function passwordChangedMail(to: string, name: string, how: 'reset' | 'changed', link: string): Mail {
  const lines = [
    `Hi ${name},`,
    how === 'reset'
      ? 'The password of your Browser Router account was just reset with a link sent to this address. Every session was signed out and your account tokens were revoked.'
      : 'The password of your Browser Router account was just changed from the Account page. Your other sessions were signed out.',
    'If this was not you, reset your password now with the link below.',
  ];
  return { to, subject: 'Your password was changed', text: `${lines.join('\n\n')}\n\n${link}\n`, html: layout(lines, link, 'Reset password') };
}
