import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';

/** the values a failed query was bound to, in a drizzle error's message and stack: up to the first stack frame or cause */
const BOUND_VALUES = /\nparams: [\s\S]*?(?=\n {4}at |\ncaused by: |$)/g;
const withoutValues = (s: string) => s.replace(BOUND_VALUES, '\nparams: [redacted]');

function scrub(o: Record<string, unknown>): Record<string, unknown> {
  delete o.params; // drizzle's DrizzleQueryError.params: what was submitted (form fields, filter values)
  delete o.detail; // PostgreSQL's detail repeats stored values ('Key (email)=(…) already exists')
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'string' && (k === 'message' || k === 'stack')) o[k] = withoutValues(v);
    else if (v && typeof v === 'object') o[k] = Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' ? scrub({ ...x }) : x)) : scrub({ ...(v as Record<string, unknown>) });
  }
  return o;
}

/**
 * pino's error serializer without the bound parameters of a failed query: the query text stays (it
 * names tables and columns only, values are placeholders), the values submitted with it do not.
 */
export function errSerializer(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  return scrub(pino.stdSerializers.err(err) as unknown as Record<string, unknown>);
}

/** the server's logger: credentials redacted from request headers, query parameters from errors */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers["x-rbac-secret-key"]', 'req.headers.cookie'],
    serializers: { err: errSerializer },
  };
  return destination ? pino(options, destination) : pino(options);
}
