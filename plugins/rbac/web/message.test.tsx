import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../runtime/client/index.js';
import { messageOf } from './session.js';

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
});
