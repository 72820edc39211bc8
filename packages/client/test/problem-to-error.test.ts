import { describe, expect, it } from 'vitest';
import { StrataError } from '@strata/core';
import { problemToError } from '../src/index.js';

const answer = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers });

describe('problemToError', () => {
  it('keeps the code and hint of a problem document and makes its detail the message', () => {
    const problem = {
      type: 'urn:strata:problem:not-found',
      title: 'Not Found',
      status: 404,
      detail: 'no session with id "ses_x"',
      code: 'NOT_FOUND',
      hint: 'Pass the id returned by memory.sessions.create().',
    };
    const error = problemToError(problem, answer(404));
    expect(StrataError.is(error, 'NOT_FOUND')).toBe(true);
    expect(error.message).toBe('no session with id "ses_x"');
    expect(error.hint).toBe('Pass the id returned by memory.sessions.create().');
    expect(error.retryable).toBe(false);
    expect(error.cause).toEqual({ status: 404, problem });
  });

  it('keeps Retry-After of a rate limit in the cause, and the error is retryable', () => {
    const problem = { title: 'Too Many Requests', status: 429, detail: 'rate limit exceeded', code: 'RATE_LIMITED', hint: 'Retry after 2 seconds.' };
    const error = problemToError(problem, answer(429, { 'retry-after': '2' }));
    expect(StrataError.is(error, 'RATE_LIMITED')).toBe(true);
    expect(error.retryable).toBe(true);
    expect(error.cause).toMatchObject({ status: 429, retryAfter: '2' });
  });

  it.each([
    [502, 'BACKEND_UNAVAILABLE'],
    [503, 'BACKEND_UNAVAILABLE'],
    [401, 'UNAUTHORIZED'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [409, 'CONFLICT'],
    [413, 'INVALID_INPUT'],
    [500, 'INTERNAL'],
  ] as const)('maps an answer %i that is not a strata problem (a proxy page) by its status to %s, with a hint', (status, code) => {
    const error = problemToError('<html>Bad Gateway</html>', answer(status));
    expect(StrataError.is(error, code)).toBe(true);
    expect(error.message).toContain(String(status));
    expect(error.message).toContain('Bad Gateway');
    expect(error.hint.length).toBeGreaterThan(10);
  });

  it('maps a code it does not know (a newer server) by the status', () => {
    const error = problemToError({ code: 'PAYMENT_REQUIRED', detail: 'quota used up', hint: 'Upgrade.' }, answer(402));
    expect(StrataError.is(error, 'INTERNAL')).toBe(true);
    expect(error.message).toBe('quota used up');
    expect(error.hint).toBe('Upgrade.');
  });
});
