// The local SMTP catcher `npm start` and the browser tests run: every service that mails sends
// real SMTP here (SMTP_URL), and a small web inbox shows what arrived. Built on nodemailer's own
// maintained `smtp-server` and `mailparser` (already how auth's SMTP test talks SMTP), so it installs
// with `npm install` and starts in-process in milliseconds; Mailpit would need a Go build on every
// fresh machine. Messages are kept in memory only: a development catcher, not a mail store.
// Run alone: node infra/scripts/mail-catcher.mjs [smtpPort] [webPort]
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const MAX_MESSAGES = 1000;

const escapeHtml = (value) =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

function page(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;color:#111}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem}
</style></head><body>${body}</body></html>`;
}

/**
 * Starts the SMTP server and its web inbox on loopback. `messages` (newest first) is what the
 * inbox shows; `/api/messages?to=` serves the same as JSON for tests.
 * @param {{ smtpPort: number, webPort: number, host?: string }} options
 */
export async function startMailCatcher({ smtpPort, webPort, host = '127.0.0.1' }) {
  /** @type {{ id: string, from: string, to: string[], subject: string, text: string, html: string | null, messageId: string | null, receivedAt: string }[]} */
  const messages = [];
  let nextId = 1;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.unshift({
            id: String(nextId++),
            from: parsed.from?.text ?? session.envelope.mailFrom?.address ?? '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : null,
            messageId: parsed.messageId ?? null,
            receivedAt: new Date().toISOString(),
          });
          messages.length = Math.min(messages.length, MAX_MESSAGES);
          callback();
        })
        .catch(callback);
    },
  });
  const web = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${host}`);
    const to = url.searchParams.get('to')?.toLowerCase();
    const listed = to ? messages.filter((m) => m.to.includes(to)) : messages;
    if (url.pathname === '/api/messages') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ messages: listed }));
    }
    const one = /^\/messages\/(\d+)$/.exec(url.pathname);
    if (one) {
      const message = messages.find((m) => m.id === one[1]);
      if (!message) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('No such message');
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(
        page(
          message.subject,
          `<p><a href="/">Inbox</a></p><h1>${escapeHtml(message.subject)}</h1>
<p>From ${escapeHtml(message.from)} to ${escapeHtml(message.to.join(', '))}, ${escapeHtml(message.receivedAt)}</p>
<pre>${escapeHtml(message.text)}</pre>`,
        ),
      );
    }
    if (url.pathname !== '/') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('Not found');
    }
    const rows = listed
      .map(
        (m) => `<tr><td>${escapeHtml(m.receivedAt)}</td><td>${escapeHtml(m.to.join(', '))}</td>
<td><a href="/messages/${m.id}">${escapeHtml(m.subject || '(no subject)')}</a></td></tr>`,
      )
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      page(
        'Vigil local inbox',
        `<h1>Vigil local inbox</h1><p>${listed.length} message(s)${to ? ` to ${escapeHtml(to)}` : ''}.</p>
<table><thead><tr><th>Received</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>`,
      ),
    );
  });
  await new Promise((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(smtpPort, host, () => resolve(undefined));
  });
  await new Promise((resolve, reject) => {
    web.once('error', reject);
    web.listen(webPort, host, () => resolve(undefined));
  });
  return {
    smtpUrl: `smtp://${host}:${smtpPort}`,
    inboxUrl: `http://${host}:${webPort}`,
    messages,
    stop: () =>
      Promise.all([
        new Promise((resolve) => smtp.close(() => resolve(undefined))),
        new Promise((resolve) => web.close(() => resolve(undefined))),
      ]),
  };
}

/**
 * The same catcher in a child process, for a caller whose event loop blocks while it waits (the
 * browser tests run jest synchronously: an in-process catcher would answer no SMTP meanwhile).
 * @param {{ smtpPort: number, webPort: number }} options
 */
export function spawnMailCatcher({ smtpPort, webPort }) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), String(smtpPort), String(webPort)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
      child.once('exit', () => resolve(undefined));
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`the mail catcher exited (${code}) before it listened: ${out}`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n'))
        resolve({ smtpUrl: `smtp://127.0.0.1:${smtpPort}`, inboxUrl: `http://127.0.0.1:${webPort}`, stop });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [smtpPort = 1025, webPort = 8025] = process.argv.slice(2).map(Number);
  const catcher = await startMailCatcher({ smtpPort, webPort });
  process.stdout.write(`SMTP ${catcher.smtpUrl}, inbox ${catcher.inboxUrl}\n`);
}
