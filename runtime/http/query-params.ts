import { badRequest, type Cause } from './errors.js';
import { UUID_RE, UUID_RULE } from '../../engine/fields/index.js';

/**
 * The query-string parameters of a route, checked in one place: every route that reads `?name=` values (the plugins'
 * own routes, the list's limit and offset) names a wrong one the same way, with the field and the rule, and a request
 * with several wrong ones hears of all of them at once.
 *
 * - `required`: absent or empty is `<name> is required` (rule `required`);
 * - `uuid`: `<name> must be a UUID` (rule `format`), the validators' words for an id;
 * - `path`: a path of this site, `<name> must be a path starting with /` (rule `format`; `//host` is another site's);
 * - `int`: `<name> must be an integer from <min> to <max>` (rule `range`), the validators' words for an integer field;
 *   absent or empty is `fallback`;
 * - `oneOf`: `<name> must be one of: a, b` (rule `enum`); absent or empty is `fallback`.
 *
 * With `strict`, a name the route does not take is `<name> is not a parameter of this route` (rule `unknown`): a
 * misspelt `limt` would otherwise be ignored without a word.
 */
export type QueryParam =
  | { kind: 'text'; required?: boolean; uuid?: boolean; path?: boolean }
  | { kind: 'int'; min: number; max: number; fallback: number }
  | { kind: 'oneOf'; values: readonly string[]; fallback: string };

type Parsed<S extends Record<string, QueryParam>> = {
  [K in keyof S]: S[K] extends { kind: 'int' } ? number : S[K] extends { kind: 'oneOf' } ? string : S[K] extends { required: true } ? string : string | undefined;
};

/** the most characters of a client's parameter name repeated in an answer */
const NAME_SHOWN = 100;

/** an integer parameter's cause, or its value (absent or empty: `fallback`) */
export function integerParam(raw: unknown, field: string, min: number, max: number, fallback: number): number | Cause {
  if (raw === undefined || raw === '') return fallback;
  const n = typeof raw === 'string' && /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
  return { field, rule: 'range', message: `${field} must be an integer from ${min} to ${max}` };
}

/** the 400 of a request's wrong parameters: one names itself, several are counted and each is a cause */
export const parameterError = (problems: Cause[]) =>
  badRequest(problems.length === 1 ? problems[0].message : `${problems.length} query parameters are wrong: ${problems.map((p) => p.message).join('; ')}`, problems);

/** the parameters `spec` names, read from `query` (Hono's `c.req.query()`), or a 400 naming every wrong one */
export function readQuery<S extends Record<string, QueryParam>>(query: Record<string, string | undefined>, spec: S, options: { strict?: boolean } = {}): Parsed<S> {
  const problems: Cause[] = [];
  const out: Record<string, string | number | undefined> = {};
  for (const [field, param] of Object.entries(spec)) {
    const raw = Object.hasOwn(query, field) ? query[field] : undefined;
    if (param.kind === 'int') {
      const n = integerParam(raw, field, param.min, param.max, param.fallback);
      if (typeof n === 'number') out[field] = n;
      else problems.push(n);
    } else if (param.kind === 'oneOf') {
      if (raw === undefined || raw === '') out[field] = param.fallback;
      else if (param.values.includes(raw)) out[field] = raw;
      else problems.push({ field, rule: 'enum', message: `${field} must be one of: ${param.values.join(', ')}` });
    } else if (raw === undefined || raw === '') {
      if (param.required) problems.push({ field, rule: 'required', message: `${field} is required` });
    } else if (param.uuid && !UUID_RE.test(raw)) problems.push({ field, rule: 'format', message: `${field} ${UUID_RULE}` });
    else if (param.path && (!raw.startsWith('/') || raw.startsWith('//'))) problems.push({ field, rule: 'format', message: `${field} must be a path starting with /` });
    else out[field] = raw;
  }
  if (options.strict) {
    for (const name of Object.keys(query)) {
      if (Object.hasOwn(spec, name)) continue;
      const field = name.slice(0, NAME_SHOWN);
      problems.push({ field, rule: 'unknown', message: `${field} is not a parameter of this route; it takes ${Object.keys(spec).join(', ')}` });
    }
  }
  if (problems.length) throw parameterError(problems);
  return out as Parsed<S>;
}
