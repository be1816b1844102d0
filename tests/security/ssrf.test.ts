import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { createFileStoragePlugin } from '../../plugins/file-storage/server/index.js';
import { localDriver } from '../../plugins/file-storage/server/drivers/index.js';
import { addressRefusal } from '../../plugins/file-storage/server/outbound.js';
import { png } from '../file-storage/storage.case.js';

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return (server.address() as { port: number }).port;
};

/**
 * SSRF through "create from url" (../shared/design/SECURITY.md): the address connected to is checked, after
 * DNS and on every redirect. Two local servers: the "remote" one the test lets through by its port (every
 * server here is on loopback), and an "internal" one that must never be reached, whatever spelling leads to it.
 */
describe('POST /api/file-storage/files/create-from-url', () => {
  let t: TestApp;
  let dir: string;
  let remote: Server;
  let internal: Server;
  let R = 0; // the remote's port
  let I = 0; // the internal service's port
  const internalHits: string[] = [];
  const image = png(16, 9);
  const names: Record<string, string[]> = {
    'files.test': ['127.0.0.1'],
    'inside.test': ['127.0.0.1'],
    'inside6.test': ['::1'],
    'metadata.test': ['169.254.169.254'],
    'mixed.test': ['93.184.215.14', '127.0.0.1'],
    'private.test': ['10.1.2.3'],
  };
  const stored = () => readdirSync(dir);
  const rows = async () => (await t.call('GET', '/api/file-storage/files/count')).body.data as number;
  const fromUrl = (url: string, extra: Record<string, unknown> = {}, auth = true) => t.call('POST', '/api/file-storage/files/create-from-url', { data: { url, ...extra } }, { auth });

  beforeAll(async () => {
    internal = createServer((req, res) => {
      internalHits.push(req.url ?? '');
      res.end('internal secret');
    });
    I = await listen(internal);
    remote = createServer((req, res) => {
      const path = req.url ?? '/';
      const redirect = (to: string) => {
        res.writeHead(302, { location: to });
        res.end();
      };
      if (path === '/pic.png') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length });
        return res.end(image);
      }
      if (path === '/moved.png') return redirect('/pic.png');
      if (path === '/to-loopback') return redirect(`http://127.0.0.1:${I}/latest/meta-data/`);
      if (path === '/to-mapped') return redirect(`http://[::ffff:127.0.0.1]:${I}/`);
      if (path === '/to-decimal') return redirect(`http://2130706433:${I}/`);
      if (path === '/to-name') return redirect(`http://inside.test:${I}/`);
      if (path === '/to-metadata') return redirect('http://169.254.169.254/latest/meta-data/');
      if (path === '/to-file') return redirect('file:///etc/passwd');
      if (path === '/loop') return redirect('/loop');
      if (path === '/page.html') {
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end('<html><script>alert(1)</script></html>');
      }
      if (path === '/big') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': 200 * 1024 });
        return res.end(Buffer.alloc(200 * 1024));
      }
      if (path === '/big-chunked') {
        res.writeHead(200, { 'content-type': 'image/png' });
        for (let i = 0; i < 20; i++) res.write(Buffer.alloc(16 * 1024));
        return res.end();
      }
      if (path === '/slow') return; // never answers
      res.writeHead(404);
      res.end();
    });
    R = await listen(remote);
    dir = mkdtempSync(join(ROOT, '.tmp', 'files-'));
    const resolve = async (host: string) => {
      if (names[host]) return names[host];
      const { lookup } = await import('node:dns/promises');
      return (await lookup(host, { all: true })).map((a) => a.address);
    };
    const plugin = createFileStoragePlugin({
      driver: localDriver(dir),
      outbound: { resolve, permit: (address, port) => port === R && (address === '127.0.0.1' || address === '::ffff:127.0.0.1'), maxBytes: 64 * 1024, timeoutMs: 2000 },
    });
    t = await bootApp(sqliteDatabase(), { plugins: [plugin] });
  });
  afterAll(async () => {
    await t?.close();
    remote?.closeAllConnections();
    await new Promise((r) => remote?.close(r));
    await new Promise((r) => internal?.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('fetches a public file, judges it by its bytes and creates the row with its size and pixels', async () => {
    const r = await fromUrl(`http://files.test:${R}/moved.png`, { alt: { en: 'From afar' } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.data).toMatchObject({ adminTitle: 'pic.png', mimeType: 'image/png', extension: 'png', size: image.length, width: 16, height: 9, alt: { en: 'From afar' } });
    expect(stored()).toEqual([r.body.data.file]);
    // the scheme in capitals is the same scheme (RFC 3986 §3.1)
    const upper = await fromUrl(`HTTP://files.test:${R}/pic.png`);
    expect(upper.status, JSON.stringify(upper.body)).toBe(201);
    expect(upper.body.data).toMatchObject({ adminTitle: 'pic.png', width: 16, height: 9 });
  });

  const loopbackSpellings = () => [
    `http://127.0.0.1:${I}/`,
    `http://127.1:${I}/`,
    `http://2130706433:${I}/`, // decimal
    `http://0x7f000001:${I}/`, // hex
    `http://0x7f.0.0.1:${I}/`,
    `http://017700000001:${I}/`, // octal
    `http://0177.0.0.1:${I}/`,
    `http://[::ffff:127.0.0.1]:${I}/`, // IPv4-mapped IPv6
    `http://[::ffff:7f00:1]:${I}/`,
    `http://[::127.0.0.1]:${I}/`, // IPv4-compatible IPv6
    `http://[::1]:${I}/`,
    `http://0.0.0.0:${I}/`,
    `http://0:${I}/`,
    `http://[::]:${I}/`,
    `http://localhost:${I}/`, // a name the system resolves to loopback
    `http://inside.test:${I}/`, // a name resolving to 127.0.0.1
    `http://inside6.test:${I}/`, // a name resolving to ::1
    `http://mixed.test:${I}/`, // one public and one loopback address
  ];
  it('refuses loopback in every spelling, and the internal service is never reached', async () => {
    const before = await rows();
    for (const url of loopbackSpellings()) {
      const r = await fromUrl(url);
      expect(r.status, url).toBe(400);
      expect(r.body.cause[0], url).toMatchObject({ field: 'url', rule: 'address' });
    }
    expect(internalHits).toEqual([]);
    expect(stored()).toEqual(expect.not.arrayContaining([expect.stringMatching(/internal/)]));
    expect(await rows()).toBe(before);
  });

  it('refuses private, link-local (cloud metadata), CGNAT, unique-local and NAT64 addresses in every spelling, and names resolving to them', async () => {
    for (const url of [
      'http://10.0.0.1/', 'http://172.16.5.4/', 'http://192.168.1.1/', 'http://0xc0a80101/', 'http://3232235777/', 'http://0300.0250.1.1/',
      'http://169.254.169.254/latest/meta-data/', 'http://2852039166/', 'http://0xa9fea9fe/', 'http://0251.0376.0251.0376/', 'http://[::ffff:169.254.169.254]/', 'http://[::ffff:a9fe:a9fe]/',
      'http://[fe80::1]/', 'http://100.64.0.1/', 'http://100.100.100.200/', 'http://[fd00:ec2::254]/', 'http://[fc00::1]/', 'http://[64:ff9b::a9fe:a9fe]/', 'http://[2002:a9fe:a9fe::1]/',
      'http://metadata.test/', 'http://private.test/', 'http://[::ffff:10.0.0.1]/', 'http://224.0.0.1/', 'http://255.255.255.255/',
    ]) {
      const r = await fromUrl(url);
      expect(r.status, url).toBe(400);
      expect(r.body.cause[0], url).toMatchObject({ field: 'url', rule: 'address' });
    }
  });

  it('checks every redirect: to loopback (plain, mapped, decimal, by name) or to the metadata address is refused', async () => {
    for (const path of ['/to-loopback', '/to-mapped', '/to-decimal', '/to-name', '/to-metadata']) {
      const r = await fromUrl(`http://files.test:${R}${path}`);
      expect(r.status, path).toBe(400);
      expect(r.body.cause[0], path).toMatchObject({ field: 'url', rule: 'address' });
    }
    expect(internalHits).toEqual([]);
    const file = await fromUrl(`http://files.test:${R}/to-file`);
    expect(file.status).toBe(400);
    expect(file.body.cause[0]).toMatchObject({ field: 'url', rule: 'scheme' });
    expect((await fromUrl(`http://files.test:${R}/loop`)).body.cause[0]).toMatchObject({ field: 'url', rule: 'redirects' });
  });

  it('only http and https urls are taken', async () => {
    for (const url of ['file:///etc/passwd', 'gopher://127.0.0.1:70/', 'ftp://example.com/x.png', 'javascript:alert(1)']) {
      const r = await fromUrl(url);
      expect(r.status, url).toBe(400);
      expect(r.body.cause[0], url).toMatchObject({ field: 'url' });
    }
  });

  it('size and time are bounded, the content is judged by its bytes, and a failed fetch stores nothing', async () => {
    const before = stored();
    const big = await fromUrl(`http://files.test:${R}/big`);
    expect(big.status).toBe(413);
    expect(big.body.cause[0]).toMatchObject({ field: 'url', rule: 'size' });
    expect((await fromUrl(`http://files.test:${R}/big-chunked`)).status).toBe(413);
    const slow = await fromUrl(`http://files.test:${R}/slow`);
    expect(slow.status).toBe(504);
    expect(slow.body.cause[0]).toMatchObject({ field: 'url', rule: 'time' });
    const html = await fromUrl(`http://files.test:${R}/page.html`);
    expect(html.status).toBe(415);
    expect(html.body.cause[0]).toMatchObject({ field: 'url', rule: 'type' });
    expect((await fromUrl(`http://files.test:${R}/missing.png`)).status).toBe(502);
    expect(stored()).toEqual(before);
  });

  it('without authorization nothing is fetched', async () => {
    const r = await fromUrl(`http://127.0.0.1:${I}/`, {}, false);
    expect(r.status).toBe(401);
    expect(internalHits).toEqual([]);
  });

  it('the address rule itself: public unicast only', () => {
    expect(addressRefusal('93.184.215.14')).toBeUndefined();
    expect(addressRefusal('2606:2800:21f:cb07:6820:80da:af6b:8b2c')).toBeUndefined();
    for (const a of ['127.0.0.1', '::ffff:127.0.0.1', '::7f00:1', '10.0.0.1', '169.254.169.254', '100.64.0.1', 'fd00:ec2::254', 'fe80::1', '::', '0.0.0.0', '64:ff9b::7f00:1', '2001::1', 'not-an-ip']) {
      expect(addressRefusal(a), a).toBeDefined();
    }
  });
});
