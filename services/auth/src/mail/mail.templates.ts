import type { MemberRole } from '@vigil/proto';
import type { OutgoingMail } from './mailer.service.js';

// Plain words and one link each; the link is the only secret in the message.
export function confirmationMail(to: string, name: string | null, link: string): OutgoingMail {
  return {
    to,
    subject: 'Confirm your Vigil account',
    text: `Hello${name ? ` ${name}` : ''},\n\nConfirm your email address to finish creating your Vigil account:\n\n${link}\n\nThe link works once and expires in 24 hours. If you did not sign up, ignore this message.\n`,
    html: `<p>Hello${name ? ` ${escapeHtml(name)}` : ''},</p><p>Confirm your email address to finish creating your Vigil account:</p><p><a href="${escapeHtml(link)}">Confirm my email</a></p><p>The link works once and expires in 24 hours. If you did not sign up, ignore this message.</p>`,
  };
}

export function accountExistsMail(to: string, loginLink: string, resetLink: string): OutgoingMail {
  return {
    to,
    subject: 'Someone tried to sign up with your email',
    text: `Someone tried to create a Vigil account with this address, which already has one.\n\nSign in: ${loginLink}\nForgot your password? ${resetLink}\n\nIf it was not you, no action is needed.\n`,
  };
}

export function recoveryMail(to: string, link: string): OutgoingMail {
  return {
    to,
    subject: 'Reset your Vigil password',
    text: `We received a request to reset the password of your Vigil account.\n\nChoose a new password here:\n\n${link}\n\nThe link works once and expires in 1 hour. If you did not ask for this, ignore this message: your password is unchanged.\n`,
    html: `<p>We received a request to reset the password of your Vigil account.</p><p><a href="${escapeHtml(link)}">Choose a new password</a></p><p>The link works once and expires in 1 hour. If you did not ask for this, ignore this message: your password is unchanged.</p>`,
  };
}

export function unlockMail(to: string, link: string, windowMinutes: number): OutgoingMail {
  return {
    to,
    subject: 'Your Vigil account was locked',
    text: `Too many wrong passwords were tried for your Vigil account, so password sign-in is paused for up to ${windowMinutes} minutes where they came from (everywhere, if they came from many places).\n\nIf it was you, unlock it now:\n\n${link}\n\nThe link works once and expires in 1 hour. If it was not you, someone may be guessing your password: after unlocking, choose a new one with "Forgot password?", and turn on two-step verification.\n`,
    html: `<p>Too many wrong passwords were tried for your Vigil account, so password sign-in is paused for up to ${windowMinutes} minutes where they came from (everywhere, if they came from many places).</p><p>If it was you, <a href="${escapeHtml(link)}">unlock my account</a>.</p><p>The link works once and expires in 1 hour. If it was not you, someone may be guessing your password: after unlocking, choose a new one with "Forgot password?", and turn on two-step verification.</p>`,
  };
}

export function apiKeyMail(to: string, clientName: string, prefix: string): OutgoingMail {
  return {
    to,
    subject: 'Your Vigil API key was regenerated',
    text: `The API key of ${clientName} was regenerated. The new key starts with ${prefix}; the old key no longer works.\n\nIf you did not do this, contact support.\n`,
  };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const ROLE_WORDS: Readonly<Record<MemberRole, string>> = {
  owner: 'an owner',
  supervisor: 'a supervisor',
  analyst: 'an analyst',
  viewer: 'a viewer',
};

export function teamInvitationMail(
  to: string,
  invitation: { clientName: string; invitedBy: string | null; role: MemberRole; link: string; expiresInHours: number },
): OutgoingMail {
  const who = invitation.invitedBy ?? 'A colleague';
  const line = `${who} invited you to join ${invitation.clientName} on Vigil as ${ROLE_WORDS[invitation.role]}.`;
  const after = `The link works once and expires in ${invitation.expiresInHours} hours. If you did not expect this, ignore this message.`;
  return {
    to,
    subject: `You are invited to join ${invitation.clientName} on Vigil`,
    text: `${line}\n\nAccept the invitation here:\n\n${invitation.link}\n\n${after}\n`,
    html: `<p>${escapeHtml(line)}</p><p><a href="${escapeHtml(invitation.link)}">Accept the invitation</a></p><p>${after}</p>`,
  };
}
