import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** a real SMTP server in this process that keeps what it receives */
export async function startSmtp() {
  const mails: ReceivedMail[] = [];
  const waiting: ((m: ReceivedMail) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        const mail = { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw };
        mails.push(mail);
        waiting.splice(0).forEach((w) => w(mail));
        done();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** the next mail to this address (or one already received) */
    async mailTo(address: string, timeoutMs = 5000): Promise<ReceivedMail> {
      const found = mails.find((m) => m.to.includes(address));
      if (found) return found;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${address} within ${timeoutMs} ms`)), timeoutMs);
        const check = (m: ReceivedMail) => {
          if (m.to.includes(address)) {
            clearTimeout(timer);
            resolve(m);
          } else waiting.push(check);
        };
        waiting.push(check);
      });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** the reset code in a received mail: the line 'Your reset code: …' (quoted-printable soft breaks undone) */
export function resetCodeIn(raw: string): string {
  const text = raw.replace(/=\r?\n/g, '');
  const m = /Your reset code: ([A-Za-z0-9_-]+)/.exec(text);
  if (!m) throw new Error('no reset code in the mail');
  return m[1];
}
