import { createServer } from 'node:http';

export interface TelegramMessage {
  chat_id: string | number;
  text: string;
  parse_mode?: string;
}

/**
 * A local stand-in for the Telegram Bot API's sendMessage (`POST /bot<token>/sendMessage`, JSON): it answers
 * `{ ok: true, result }` as Telegram does, `{ ok: false, error_code: 401 }` for another token, and the next
 * queued failures first (`failNext(n)`: 429 Too Many Requests with retry_after, as Telegram throttles).
 */
export async function startTelegramFake(token = '123456:TEST-token') {
  const messages: TelegramMessage[] = [];
  let failures = 0;
  let nextId = 1;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const m = /^\/bot([^/]+)\/sendMessage$/.exec(req.url ?? '');
    if (!m || req.method !== 'POST') return send(404, { ok: false, error_code: 404, description: 'Not Found' });
    if (decodeURIComponent(m[1]) !== token) return send(401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as TelegramMessage;
    if (!body.chat_id || !body.text) return send(400, { ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
    if (failures > 0) {
      failures--;
      return send(429, { ok: false, error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } });
    }
    messages.push(body);
    send(200, { ok: true, result: { message_id: nextId++, date: Math.floor(Date.now() / 1000), chat: { id: Number(body.chat_id), type: 'private' }, text: body.text } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    messages,
    failNext(n: number) {
      failures = n;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
