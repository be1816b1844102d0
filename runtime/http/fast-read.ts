import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Hono } from 'hono';
import type { Entity, Model } from '../../engine/model.js';
import type { Repository } from '../crud/repository.js';
import type { Policy } from '../crud/policy.js';
import type { Authorizer } from './access.js';
import { credentialsIn } from './session.js';
import { requestIdOf, type Enveloped, type Finish } from './envelope.js';
import { PlainHeaders, type Answer } from './wire.js';

/**
 * The fast lane of the commonest request: an anonymous GET of one row of a public entity,
 * `/api/<module>/<route>/<uuid>` (a product, an article, a page), answered straight from the Node request without
 * hono, its middleware chain and the Fetch objects they pass around. The answer is the one the app gives, made by
 * the same parts: the row read by `Repository` (SQLite: in the same turn), its dates as text, the envelope's own
 * finishing (`finisher`: no-store, CORS, compression, ETag and 304, security headers, request id). Everything else
 * goes to the app: another method, a query string, any credentials (Authorization, the system key, the session
 * cookie), a missing row (the app's 404), a read that fails (the app's 500, logged).
 *
 * Whether an entity's reads may take the lane is decided from the app itself, once per entity (again when routes are
 * added): the authorizer must declare an anonymous GET of any of its rows allowed (`Authorizer.opensReads`), its
 * rows must read the same for every caller (no field or row access by owner: `Policy.readDependsOnCaller`), and the
 * app's chain for the path must reach the generic get (`genericGet`) through handlers known to leave such a read as
 * it is (`leavesReads`) or to be what the lane does itself (the envelope). A plugin's route or middleware on the path
 * that is not one of those keeps the path off the lane: correct first, fast second.
 *
 * The app's `fetch` (and so `app.request`, which the API suites use) takes the same lane for a Fetch request, so both
 * lanes pass the same case suites; `tests/api/fast-read.test.ts` compares their answers over HTTP.
 */

/** handlers whose effect on an anonymous GET under /api/ is nothing (they pass it on), or what the lane does itself */
const known = new WeakSet<object>();
/** the generic get by id (runtime/crud/routes.ts) */
const gets = new WeakSet<object>();

/**
 * Marks a middleware that, for a GET of `/api/<module>/<route>/<uuid>` (no query) carrying no credentials, calls
 * `next()` and changes neither the request's context nor the answer: such a read may skip it (the fast lane).
 * Returns the handler.
 */
export function leavesReads<T extends object>(handler: T): T {
  known.add(handler);
  return handler;
}

/** marks the generic get by id, whose answer the fast lane gives */
export function genericGet<T extends object>(handler: T): T {
  gets.add(handler);
  return handler;
}

/** `/api/<module>/<route>/<uuid>`, a trailing slash allowed (the app routes it as the path without it), no query */
const ITEM = /^\/api\/([a-z0-9-]+)\/([a-z0-9-]+)\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\/?$/;
const PROBE_ID = '00000000-0000-4000-8000-000000000000';

export interface FastReadOptions {
  app: Hono;
  model: Model;
  repo: Repository;
  policy: Policy;
  /** the app's authorizer as it is when asked (plugins replace it) */
  authorizer: () => Authorizer;
  /** the envelope's finishing, with the app's options and compressed bodies */
  finish: Finish;
  /** what the envelope calls as each request starts (the database's `fresh`) */
  onRequest?: () => void;
}

/** a request the lane takes: its entity and the row's id */
interface Taken {
  entity: Entity;
  id: string;
}

/**
 * A request the lane takes, as finishing reads it: a GET, with no credentials (the lane takes none). Its headers are
 * read by a class's method, made once, rather than by a closure made per request.
 */
abstract class LaneAsked implements Enveloped {
  readonly method = 'GET';
  constructor(readonly path: string) {}
  abstract header(name: string): string | undefined;
  credentials() {
    return false;
  }
}

/** a Node request's: the headers Node parsed */
class NodeAsked extends LaneAsked {
  constructor(path: string, private readonly headers: IncomingHttpHeaders) {
    super(path);
  }
  header(name: string): string | undefined {
    const v = this.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  }
}

/** a Fetch request's */
class FetchAsked extends LaneAsked {
  constructor(path: string, private readonly request: Request) {
    super(path);
  }
  header(name: string): string | undefined {
    return this.request.headers.get(name) ?? undefined;
  }
}

export class FastReads {
  /** by `<module>/<route>`: the entity when its reads may take the lane, null when not */
  #entities = new Map<string, Entity | null>();
  /** how many routes the app had when #entities was filled */
  #routes = -1;
  readonly #byRoute: Map<string, Entity>;
  /** requests answered by the lane (tests read it, to know the lane is taken) */
  served = 0;

  constructor(private readonly o: FastReadOptions) {
    this.#byRoute = new Map(o.model.entities.map((e) => [`${e.module}/${e.route}`, e]));
  }

  /** the entity of `<module>/<route>` when its anonymous reads by id may take the lane */
  #entity(module: string, route: string): Entity | null {
    if (this.o.app.routes.length !== this.#routes) {
      this.#entities.clear();
      this.#routes = this.o.app.routes.length;
    }
    const key = `${module}/${route}`;
    let found = this.#entities.get(key);
    if (found === undefined) {
      const entity = this.#byRoute.get(key);
      found = entity && this.#open(entity) ? entity : null;
      this.#entities.set(key, found);
    }
    return found;
  }

  #open(entity: Entity): boolean {
    if (!this.o.authorizer().opensReads?.(entity) || this.o.policy.readDependsOnCaller(entity)) return false;
    // the handlers the app runs for a GET of one of its rows, in order (hono's router keeps [handler, route] pairs)
    const [matched] = this.o.app.router.match('GET', `/api/${entity.module}/${entity.route}/${PROBE_ID}`) as unknown as [[[object, unknown], unknown][]];
    const handlers = matched.map(([[handler]]) => handler);
    // the generic get answers without calling next: what was added after it (the web apps' handlers) never runs
    const get = handlers.findIndex((h) => gets.has(h));
    return get >= 0 && handlers.slice(0, get).every((h) => known.has(h));
  }

  /** the entity and id of `target` when the lane takes a request for it (credentials are asked apart) */
  #take(method: string, target: string): Taken | undefined {
    if (method !== 'GET' || target.charCodeAt(4) !== 0x2f || !target.startsWith('/api/')) return undefined;
    const m = ITEM.exec(target);
    if (!m) return undefined;
    const entity = this.#entity(m[1], m[2]);
    return entity ? { entity, id: m[3].toLowerCase() } : undefined;
  }

  /**
   * The answer of a taken request: undefined when its row is missing (the app answers it: the same 404), a promise
   * where the row is read asynchronously (PostgreSQL) or its body compressed. Throws when the read fails.
   */
  #answer({ entity, id }: Taken, asked: Enveloped): Answer | undefined | Promise<Answer | undefined> {
    this.o.onRequest?.();
    const requestId = requestIdOf(asked.header('x-request-id'));
    const repo = this.o.repo;
    if (repo.database.readRaw) return this.#made(entity, repo.getNow(entity, id, true), asked, requestId);
    return repo.get(entity, id).then((row) => this.#made(entity, row, asked, requestId));
  }

  /** the app's answer of a row: its dates as text, `{ data }`, finished as the envelope finishes it */
  #made(entity: Entity, row: Record<string, unknown> | undefined, asked: Enveloped, requestId: string): Answer | undefined | Promise<Answer> {
    if (!row) return undefined;
    this.o.repo.datesAsText(entity, [row]);
    const answer: Answer = { status: 200, body: JSON.stringify({ data: row }), headers: new PlainHeaders({ 'content-type': 'application/json' }) };
    const pending = this.o.finish(asked, answer, requestId);
    return pending ? pending.then(() => answer) : answer;
  }

  /**
   * A Node request: answered here (true), or left to `app` (false). A request taken whose row turns out missing, or
   * whose read fails, is handed to `app` as it is (a GET has no body to have been read).
   */
  node(req: IncomingMessage, res: ServerResponse, app: (req: IncomingMessage, res: ServerResponse) => unknown): boolean {
    const taken = this.#take(req.method ?? '', req.url ?? '');
    if (!taken) return false;
    const asked = new NodeAsked(req.url!, req.headers);
    if (credentialsIn(asked)) return false;
    let answer: Answer | undefined | Promise<Answer | undefined>;
    try {
      answer = this.#answer(taken, asked);
    } catch {
      return false;
    }
    if (answer === undefined) return false;
    if (answer instanceof Promise) {
      answer.then(
        (a) => (a ? this.#write(res, a) : app(req, res)),
        () => app(req, res),
      );
    } else this.#write(res, answer);
    return true;
  }

  #write(res: ServerResponse, answer: Answer) {
    this.served++;
    const record = (answer.headers as PlainHeaders).record;
    const body = answer.body as string | Uint8Array | null;
    if (body !== null && record['content-length'] === undefined) record['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    res.writeHead(answer.status, record);
    if (body === null) res.end();
    else res.end(body);
  }

  /**
   * A Fetch request (the app's own `fetch`, and so `app.request`): the answer, or undefined when the lane does not
   * take it. A request taken whose row is missing, or whose read fails, is answered by `app`.
   */
  fetch(request: Request, app: () => Response | Promise<Response>): Response | Promise<Response> | undefined {
    const url = request.url;
    const at = url.indexOf('/', url.indexOf('://') + 3);
    const target = at < 0 ? '' : url.slice(at);
    const taken = this.#take(request.method, target);
    if (!taken) return undefined;
    const asked = new FetchAsked(target, request);
    if (credentialsIn(asked)) return undefined;
    const respond = (a: Answer | undefined) => {
      if (!a) return app();
      this.served++;
      return new Response(a.body as BodyInit | null, { status: a.status, headers: (a.headers as PlainHeaders).record as HeadersInit });
    };
    try {
      const answer = this.#answer(taken, asked);
      return answer instanceof Promise ? answer.then(respond, app) : respond(answer);
    } catch {
      return app();
    }
  }
}
