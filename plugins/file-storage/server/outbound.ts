import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';

/** bounds of one outbound fetch */
export interface FetchLimits {
  /** the most bytes the answer may have (default 20 MiB, an upload's limit) */
  maxBytes: number;
  /** the whole fetch, every redirect included (default 15 s) */
  timeoutMs: number;
  /** redirects followed (default 5) */
  maxRedirects: number;
}

export interface OutboundOptions extends Partial<FetchLimits> {
  /** a host name's addresses (default: the system resolver, every address) */
  resolve?: (hostname: string) => Promise<string[]>;
  /** lets one address and port through whatever its range: for tests' local servers only, never in production */
  permit?: (address: string, port: number) => boolean;
}

export type RefusalReason = 'scheme' | 'address' | 'redirects' | 'size' | 'time' | 'status' | 'network';

/** why an outbound fetch was not made or not finished; the message is safe to show */
export class OutboundRefused extends Error {
  constructor(
    public reason: RefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

const DEFAULTS: FetchLimits = { maxBytes: 20 * 1024 * 1024, timeoutMs: 15_000, maxRedirects: 5 };
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Why an address may not be fetched from, or undefined when it is a public unicast address. Every spelling is
 * one address here: IPv4-mapped IPv6 is judged as the IPv4 it maps; the WHATWG url parser has already turned
 * decimal, octal and hex hosts into dotted IPv4. Loopback, private, link-local (cloud metadata), CGNAT,
 * unique-local, multicast, reserved, NAT64/6to4/Teredo and anything outside global IPv6 unicast are refused.
 */
export function addressRefusal(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv6' && !ip.match(GLOBAL_UNICAST_V6)) return 'not global unicast';
  return undefined;
}

const familyOf = (address: string) => (ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4);

/**
 * GET a remote file without reaching into this server's network (SSRF): the address checked is the one
 * connected to — the resolver's answer is checked inside the socket's own lookup (so there is no second
 * resolution to rebind), a literal address before connecting, and the connected socket's remote address once
 * more — on the first request and on every redirect. Answers over `maxBytes` or slower than `timeoutMs` stop.
 */
export async function fetchPublic(url: string, options: OutboundOptions = {}): Promise<{ bytes: Buffer; url: string; contentType?: string }> {
  const limits = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) } as FetchLimits & OutboundOptions;
  const resolve = options.resolve ?? (async (host: string) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address));
  const deadline = Date.now() + limits.timeoutMs;
  let current = url;
  for (let hop = 0; ; hop++) {
    const answer = await request(current, limits, resolve, deadline);
    if (answer.kind === 'body') return { bytes: answer.bytes, url: current, contentType: answer.contentType };
    if (hop >= limits.maxRedirects) throw new OutboundRefused('redirects', `more than ${limits.maxRedirects} redirects`);
    current = new URL(answer.location, current).toString();
  }
}

type Answer = { kind: 'body'; bytes: Buffer; contentType?: string } | { kind: 'redirect'; location: string };

function request(raw: string, limits: FetchLimits & OutboundOptions, resolve: (host: string) => Promise<string[]>, deadline: number): Promise<Answer> {
  let target: URL;
  try {
    target = new URL(raw);
  } catch {
    return Promise.reject(new OutboundRefused('scheme', 'url is not a valid url'));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.reject(new OutboundRefused('scheme', `url must be http or https, not ${target.protocol.replace(':', '')}`));
  if (target.username || target.password) return Promise.reject(new OutboundRefused('scheme', 'url may not carry credentials'));
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  const check = (address: string) => {
    if (limits.permit?.(address, port)) return;
    const why = addressRefusal(address);
    if (why) throw new OutboundRefused('address', `url leads to an address that may not be fetched (${why})`);
  };
  const host = target.hostname.replace(/^\[|\]$/g, '');
  try {
    if (ipaddr.isValid(host)) check(host);
  } catch (e) {
    return Promise.reject(e);
  }

  // the socket connects to exactly what this answers: every address of the name must be allowed
  const lookup = (hostname: string, opts: { all?: boolean }, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    resolve(hostname).then(
      (addresses) => {
        try {
          if (!addresses.length) throw new OutboundRefused('network', `${hostname} has no address`);
          addresses.forEach(check);
          if (opts.all) callback(null, addresses.map((address) => ({ address, family: familyOf(address) })));
          else callback(null, addresses[0], familyOf(addresses[0]));
        } catch (e) {
          callback(e as Error, '');
        }
      },
      () => callback(new OutboundRefused('network', `${hostname} could not be resolved`), ''),
    );
  };

  return new Promise<Answer>((done, fail) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return fail(new OutboundRefused('time', `no answer within ${limits.timeoutMs} ms`));
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(target, { method: 'GET', agent: false, lookup: lookup as never, headers: { 'accept-encoding': 'identity', 'user-agent': 'manifest-platform file fetcher' } });
    const timer = setTimeout(() => req.destroy(new OutboundRefused('time', `no answer within ${limits.timeoutMs} ms`)), remaining);
    const finish = (e?: unknown, answer?: Answer) => {
      clearTimeout(timer);
      if (e) fail(e instanceof OutboundRefused ? e : new OutboundRefused('network', `the remote server could not be reached (${(e as NodeJS.ErrnoException).code ?? 'error'})`));
      else done(answer!);
    };
    req.on('socket', (socket: Socket) => {
      socket.once('connect', () => {
        try {
          check(socket.remoteAddress ?? '');
        } catch (e) {
          req.destroy(e as Error);
        }
      });
    });
    req.on('error', (e) => finish(e));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
        res.resume();
        return finish(undefined, { kind: 'redirect', location: res.headers.location });
      }
      if (status < 200 || status > 299) {
        res.resume();
        return finish(new OutboundRefused('status', `the remote server answered ${status}`));
      }
      const declared = Number(res.headers['content-length']);
      if (declared > limits.maxBytes) {
        req.destroy();
        return finish(new OutboundRefused('size', `the remote file is larger than ${limits.maxBytes} bytes`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) {
          req.destroy();
          finish(new OutboundRefused('size', `the remote file is larger than ${limits.maxBytes} bytes`));
        } else chunks.push(chunk);
      });
      res.on('end', () => finish(undefined, { kind: 'body', bytes: Buffer.concat(chunks), contentType: res.headers['content-type'] }));
      res.on('error', (e) => finish(e));
    });
    req.end();
  });
}
