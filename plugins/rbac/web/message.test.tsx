import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../runtime/client/index.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { translate } from '../../../web/storefront/words.js';
import { messageOf } from './session.js';
import { SERVER_REFUSALS, refusalOf } from './ui.js';

describe('messageOf: what a toast says of a failed request', () => {
  afterEach(() => document.documentElement.removeAttribute('lang'));

  it("no answer at all (status 0) is said in the page's language, not as the browser's 'Failed to fetch'", () => {
    const offline = new ApiError('An error occurred: Failed to fetch', 0);
    document.documentElement.lang = 'ru';
    expect(messageOf(offline)).toBe('Не удалось связаться с сервером. Проверьте подключение и попробуйте ещё раз.');
    document.documentElement.lang = 'en';
    expect(messageOf(offline)).toBe('The server could not be reached. Check your connection and try again.');
  });

  it("an answer's error keeps the server's message, without the status parts", () => {
    expect(messageOf(new ApiError('Invalid provider | provider must be one of: dummy | 400 | Bad Request', 400))).toBe('Invalid provider');
    expect(messageOf(new Error('boom'))).toBe('boom');
    expect(messageOf(undefined, 'Что-то пошло не так')).toBe('Что-то пошло не так');
  });

  it("an answer without a message of its own (a proxy's error page) is a failure in the page's language with its status, not a bare '502'", () => {
    document.documentElement.lang = 'en';
    expect(messageOf(new ApiError('502 | Bad Gateway', 502))).toBe('Something went wrong (502)');
    expect(messageOf(new ApiError('404 | ', 404))).toBe('Something went wrong (404)');
    document.documentElement.lang = 'ru';
    expect(messageOf(new ApiError('503 | Service Unavailable', 503))).toBe('Произошла ошибка (503)');
  });

  it("the rate limit's 429 is said in the page's language with its wait", () => {
    const limited = new ApiError('Too many attempts: try again in 42 seconds | 429 | Too Many Requests', 429);
    document.documentElement.lang = 'en';
    expect(messageOf(limited)).toBe('Too many attempts: try again in 42 seconds');
    document.documentElement.lang = 'ru';
    expect(messageOf(limited)).toBe('Слишком много попыток: попробуйте снова через 42 с');
  });
});

describe('refusalOf: the account routes refusals in the page language', () => {
  it('each refusal it knows is a message the rbac routes answer, word for word (in English the text is the same)', () => {
    const dir = join(process.cwd(), 'plugins/rbac/server/routes');
    const routes = readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    const en = (key: string) => translate(`rbac.${key}`, 'en');
    for (const [message, key] of Object.entries(SERVER_REFUSALS)) {
      expect(routes, message).toContain(`'${message}'`);
      expect(en(key)).toBe(message);
      expect(refusalOf(new ApiError(`${message} | 409 | Conflict`, 409), en)).toBe(message);
    }
    const ru = (key: string) => translate(`rbac.${key}`, 'ru');
    expect(refusalOf(new ApiError('An account with this email already exists | login is already registered | 409 | Conflict', 409), ru)).toBe('Аккаунт с этой почтой уже есть');
    expect(refusalOf(new ApiError('Invalid provider | 400 | Bad Request', 400), ru)).toBe('Invalid provider');
  });
});
