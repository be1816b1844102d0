import qs from 'qs';

/** A non-OK answer: the message joins the server's message, each cause's message and '{status} | {statusText}' with ' | ' */
export class ApiError extends Error {
  constructor(
    message: string,
    public status: number,
    public cause?: { message: string; field?: string; rule?: string }[],
  ) {
    super(message);
    this.name = 'ApiError';
  }
  toJSON() {
    return { message: this.message, status: this.status, cause: this.cause };
  }
  /** no usable answer (status 0: the network, a timeout) or the server's own fault (5xx): worth trying again */
  get isFault(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}

export interface ClientOptions {
  /** e.g. http://localhost:4000; '' means the current origin in a browser */
  baseUrl?: string;
  /** extra headers on every request, e.g. X-RBAC-SECRET-KEY on a server, or a Bearer token */
  headers?: Record<string, string> | (() => Record<string, string>);
  fetch?: typeof fetch;
}

export type FilterMethod =
  | 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'ilike' | 'notLike' | 'notIlike'
  | 'inArray' | 'notInArray' | 'isNull' | 'isNotNull';

export interface FindParams<Row> {
  filters?: {
    and?: { column: (keyof Row & string) | `${keyof Row & string}.${string}`; method: FilterMethod; value?: unknown }[];
    or?: { column: (keyof Row & string) | `${keyof Row & string}.${string}`; method: FilterMethod; value?: unknown }[];
  };
  orderBy?: { and: { column: (keyof Row & string) | `${keyof Row & string}.${string}`; method: 'asc' | 'desc' }[] };
  limit?: number;
  offset?: number;
}

export interface RequestOptions {
  /** give up after this many ms */
  timeout?: number;
  /** tries after the first, for idempotent reads */
  retries?: number;
  retryDelay?: number;
  files?: Record<string, Blob | Blob[]>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Http {
  request<T>(method: string, path: string, init?: { query?: unknown; data?: unknown } & RequestOptions): Promise<T>;
}

async function errorOf(res: Response): Promise<ApiError> {
  let body: { message?: unknown; cause?: unknown } = {};
  try {
    body = await res.json();
  } catch {
    /* not JSON: the status still says what happened */
  }
  const causes = Array.isArray(body.cause) ? (body.cause as { message: string }[]) : undefined;
  const parts = [
    typeof body.message === 'string' ? body.message : undefined,
    ...(causes ?? []).map((c) => c?.message).filter(Boolean),
    `${res.status} | ${res.statusText}`,
  ].filter(Boolean);
  return new ApiError(parts.join(' | '), res.status, causes);
}

/**
 * What a request that got no usable answer throws (the network failed, the timeout passed, the body was not JSON):
 * the spec's 'An error occurred:' plus the cause's message, as an ApiError with status 0 so that callers handle one
 * kind of error. An answer's own error (an ApiError) goes through as it is.
 */
function failure(e: unknown): unknown {
  if (e instanceof ApiError) return e;
  const code = (e as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  const message = e instanceof Error ? (e.name === 'TimeoutError' ? 'the server did not answer in time' : `${e.message}${typeof code === 'string' ? ` (${code})` : ''}`) : String(e);
  return new ApiError(`An error occurred: ${message}`, 0);
}

/**
 * The query as sent: a filter's empty list of values becomes an empty `value=` (the server's empty list: `inArray`
 * matches nothing, `notInArray` everything). qs leaves an empty array out of the string, which the server would
 * read as a missing value, a 400.
 */
function sentQuery(query: unknown): unknown {
  const filters = (query as { filters?: Record<string, unknown> } | undefined)?.filters;
  if (!filters || typeof filters !== 'object') return query;
  const groups = Object.fromEntries(Object.entries(filters).map(([group, list]) => [
    group,
    Array.isArray(list) ? list.map((c) => (c && typeof c === 'object' && Array.isArray((c as { value?: unknown }).value) && !(c as { value: unknown[] }).value.length ? { ...c, value: '' } : c)) : list,
  ]));
  return { ...(query as object), filters: groups };
}

export function createHttp(options: ClientOptions = {}): Http {
  const f = options.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  return {
    async request<T>(method: string, path: string, init: { query?: unknown; data?: unknown } & RequestOptions = {}): Promise<T> {
      const search = init.query ? qs.stringify(sentQuery(init.query), { encodeValuesOnly: true }) : '';
      const url = `${options.baseUrl ?? ''}${path}${search ? '?' + search : ''}`;
      const headers: Record<string, string> = { ...(typeof options.headers === 'function' ? options.headers() : options.headers) };
      let body: BodyInit | undefined;
      if (init.files) {
        const form = new FormData();
        form.set('data', JSON.stringify(init.data ?? {}));
        for (const [name, blobs] of Object.entries(init.files)) for (const b of Array.isArray(blobs) ? blobs : [blobs]) form.append(name, b);
        body = form;
      } else if (init.data !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify({ data: init.data });
      }
      for (let attempt = 0; ; attempt++) {
        try {
          const res = await f(url, {
            method, headers, body, credentials: 'include',
            signal: init.timeout ? AbortSignal.timeout(init.timeout) : undefined,
          });
          if (!res.ok) throw await errorOf(res);
          return ((await res.json()) as { data: T }).data;
        } catch (e) {
          // client errors are answers, not faults: only network failures and 5xx are retried
          const retryable = !(e instanceof ApiError) || e.isFault;
          if (!retryable || attempt >= (init.retries ?? 0)) throw failure(e);
          await sleep(init.retryDelay ?? 1000);
        }
      }
    },
  };
}

/**
 * The operations of one entity (spec §7).
 * @example await api.ecommerce.products.findById(id)
 */
export function entityClient<Row, Create>(http: Http, path: string) {
  return {
    find: (params: FindParams<Row> = {}, opts?: RequestOptions) => http.request<Row[]>('GET', path, { query: params, ...opts }),
    /** retries 3 times, 1 s apart, each try with a 10 s timeout */
    findById: (id: string, opts?: RequestOptions) =>
      http.request<Row>('GET', `${path}/${encodeURIComponent(id)}`, { retries: 3, retryDelay: 1000, timeout: 10_000, ...opts }),
    count: (params: Pick<FindParams<Row>, 'filters'> = {}) => http.request<number>('GET', `${path}/count`, { query: params }),
    create: (data: Create, opts?: RequestOptions) => http.request<Row>('POST', path, { data, ...opts }),
    update: (id: string, data: Partial<Create>, opts?: RequestOptions) => {
      if (!id) return Promise.reject(new Error('id is required'));
      return http.request<Row>('PATCH', `${path}/${encodeURIComponent(id)}`, { data, ...opts });
    },
    delete: (id: string) => {
      if (!id) return Promise.reject(new Error('id is required'));
      return http.request<Row>('DELETE', `${path}/${encodeURIComponent(id)}`);
    },
    findOrCreate: (data: Create) => http.request<Row>('POST', `${path}/find-or-create`, { data }),
    bulkCreate: (data: Create[]) => http.request<Row[]>('POST', `${path}/bulk`, { data }),
    bulkUpdate: (data: (Partial<Create> & { id: string })[]) => http.request<Row[]>('PATCH', `${path}/bulk`, { data }),
  };
}

export type EntityClient<Row, Create> = ReturnType<typeof entityClient<Row, Create>>;
