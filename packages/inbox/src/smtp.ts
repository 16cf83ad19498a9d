import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { simpleParser, type AddressObject } from 'mailparser';
import type { Logger } from 'pino';
import { findCode, findConfirmationLink, findLinks } from './extract.js';
import { InboxFullError, newMessageId, type InboxStore, type StoredMessage } from './store.js';

// The receiving end of the built-in inboxes: an SMTP listener that takes mail only for
// addresses the service created, refuses every other recipient at RCPT time (so it can
// never be used as a relay), caps message size and count, and stores the parsed message.
// No authentication and no TLS: it sits behind the operator's MX for INBOX_DOMAIN.

export interface SmtpOptions {
  port: number;
  host: string;
  store: InboxStore;
  maxMessageBytes: number;
  maxMessagesPerInbox: number;
  /** Recipients per message (all must be our inboxes). */
  maxRecipients?: number;
  logger?: Logger;
}

/** Body text kept per message (longer bodies are cut, with the size recorded). */
const MAX_TEXT_CHARS = 100_000;

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

function addressesOf(a: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(a) ? a : a ? [a] : [];
  return list.flatMap((o) => o.value.map((v) => v.address ?? '')).filter(Boolean);
}

export async function startSmtpServer(o: SmtpOptions): Promise<{ server: SMTPServer; port: number; close(): Promise<void> }> {
  const log = o.logger;
  const maxRecipients = o.maxRecipients ?? 10;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: o.maxMessageBytes,
    logger: false,
    banner: 'Ariadne inbox',
    // A slow or silent client cannot hold a connection for long.
    socketTimeout: 30_000,
    closeTimeout: 5_000,
    maxClients: 200,
    onRcptTo(address: SMTPServerAddress, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      if (session.envelope.rcptTo.length >= maxRecipients) return callback(smtpError('Too many recipients', 452));
      o.store.byAddress(address.address).then(
        (inbox) => callback(inbox ? null : smtpError(`No such mailbox here: ${address.address}`, 550)),
        () => callback(smtpError('Temporary failure, try again later', 451)),
      );
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      const chunks: Buffer[] = [];
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // Past the limit, keep draining the stream but stop holding it in memory.
        if (bytes <= o.maxMessageBytes) chunks.push(chunk);
      });
      stream.on('error', (err) => callback(err));
      stream.on('end', () => {
        if (stream.sizeExceeded || bytes > o.maxMessageBytes) {
          log?.info({ bytes, limit: o.maxMessageBytes }, 'inbox: message refused, too large');
          return callback(smtpError(`Message exceeds the maximum size of ${o.maxMessageBytes} bytes`, 552));
        }
        deliver(Buffer.concat(chunks), session, bytes).then(
          () => callback(null),
          (err: Error) => callback(err instanceof InboxFullError ? smtpError(err.message, 552) : smtpError('Temporary failure, try again later', 451)),
        );
      });
    },
  });

  async function deliver(raw: Buffer, session: SMTPServerSession, size: number): Promise<void> {
    const parsed = await simpleParser(raw, { skipImageLinks: true });
    const html = typeof parsed.html === 'string' ? parsed.html : undefined;
    // mailparser renders an HTML-only message as text too: say when that is what `text` is.
    const fromHtml = !!html && !/^content-type:\s*text\/plain/im.test(raw.toString('latin1'));
    const text = (parsed.text ?? '').slice(0, MAX_TEXT_CHARS);
    const subject = parsed.subject ?? '';
    const message: StoredMessage = {
      id: newMessageId(),
      receivedAt: new Date().toISOString(),
      from: addressesOf(parsed.from)[0] ?? (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
      to: addressesOf(parsed.to),
      subject,
      text,
      fromHtml,
      links: findLinks(html, text).slice(0, 50),
      code: findCode(subject, text),
      link: findConfirmationLink(html, text),
      size,
    };
    for (const rcpt of session.envelope.rcptTo) {
      const inbox = await o.store.byAddress(rcpt.address);
      // The inbox may have expired between RCPT and DATA: nothing to store then.
      if (inbox) await o.store.addMessage(inbox, message, o.maxMessagesPerInbox);
    }
  }

  server.on('error', (err) => log?.warn({ err: err.message }, 'inbox: SMTP connection error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : o.port;
  return {
    server,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
