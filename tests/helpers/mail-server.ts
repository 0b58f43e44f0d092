import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One e-mail the server took: the envelope's recipients, the raw message and mailparser's reading of it. */
export type ReceivedMail = { envelopeTo: string[]; raw: Buffer; mail: ParsedMail };

export type MailServer = {
  /** `smtp://user:pass@127.0.0.1:<port>`, as SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** Resolves once `count` e-mails in all have arrived (at once if they have). */
  waitFor(count: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
};

/**
 * A real SMTP server on loopback (smtp-server) that keeps every e-mail it is sent, read back with mailparser.
 * It asks for a user and password (`user`/`pass`): a transport that forgets SMTP_URL's credentials is refused.
 * STARTTLS is off, so a client sends in the clear on loopback without a certificate.
 */
export async function startMailServer(
  options: { user?: string; pass?: string; port?: number } = {},
): Promise<MailServer> {
  const user = options.user ?? 'alerts';
  const pass = options.pass ?? 'mail-secret-pass';
  const received: ReceivedMail[] = [];
  const waiters: { count: number; resolve: (mails: ReceivedMail[]) => void }[] = [];
  const settle = () => {
    for (const w of [...waiters]) {
      if (received.length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(received.slice());
      }
    }
  };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === pass) callback(null, { user });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((mail) => {
            received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), raw, mail });
            settle();
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${port}`,
    received,
    waitFor(count) {
      return new Promise((resolve) => {
        waiters.push({ count, resolve });
        settle();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
