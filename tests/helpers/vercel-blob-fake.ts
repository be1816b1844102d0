import { createServer, type IncomingMessage } from 'node:http';
import { createHash } from 'node:crypto';

const readAll = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

/**
 * A local stand-in for the Vercel Blob API (the part @vercel/blob's put, head and del use): PUT /?pathname=…
 * with a Bearer read-write token stores the body and answers the blob's https url; POST /delete {urls}
 * removes; GET /?url=… answers its metadata. Point the library at it with VERCEL_BLOB_API_URL.
 */
export async function startVercelBlobFake(storeId = 'teststore') {
  const token = `vercel_blob_rw_${storeId}_secret0123456789`;
  const blobs = new Map<string, { bytes: Buffer; contentType: string }>();
  const host = `https://${storeId}.public.blob.vercel-storage.com`;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${token}`) return send(403, { error: { code: 'forbidden', message: 'Access denied, please provide a valid token for this resource.' } });
    const body = await readAll(req);
    if (req.method === 'PUT' && url.pathname === '/') {
      const pathname = url.searchParams.get('pathname') ?? '';
      if (!pathname) return send(400, { error: { code: 'bad_request', message: 'pathname is required' } });
      if (blobs.has(pathname) && req.headers['x-allow-overwrite'] !== '1') return send(400, { error: { code: 'bad_request', message: 'This blob already exists' } });
      const contentType = String(req.headers['x-content-type'] ?? 'application/octet-stream');
      blobs.set(pathname, { bytes: body, contentType });
      return send(200, { url: `${host}/${pathname}`, downloadUrl: `${host}/${pathname}?download=1`, pathname, contentType, contentDisposition: `inline; filename="${pathname}"`, etag: createHash('md5').update(body).digest('hex') });
    }
    if (req.method === 'POST' && url.pathname === '/delete') {
      const { urls } = JSON.parse(body.toString('utf8')) as { urls: string[] };
      for (const u of urls) blobs.delete(new URL(u).pathname.slice(1));
      return send(200, {});
    }
    if (req.method === 'GET' && url.pathname === '/' && url.searchParams.get('url')) {
      const pathname = new URL(url.searchParams.get('url')!).pathname.slice(1);
      const blob = blobs.get(pathname);
      if (!blob) return send(404, { error: { code: 'not_found', message: 'The requested blob does not exist' } });
      return send(200, { url: `${host}/${pathname}`, downloadUrl: `${host}/${pathname}?download=1`, pathname, size: blob.bytes.length, contentType: blob.contentType, contentDisposition: 'inline', cacheControl: 'public, max-age=31536000', uploadedAt: new Date().toISOString(), etag: 'x' });
    }
    send(404, { error: { code: 'not_found', message: 'Not found' } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    blobs,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
