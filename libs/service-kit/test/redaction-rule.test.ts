/**
 * The one URL rule (redactUrl): every credential-bearing query parameter and credential path segment,
 * wherever the URL appears (access log, error message, stack).
 */
import { describe, expect, it } from 'vitest';
import { redactUrl, SECRET_PARAM_NAMES } from '../src/index.ts';

describe('redactUrl', () => {
  it('redacts every credential parameter name, in any case', () => {
    for (const name of SECRET_PARAM_NAMES) {
      expect(redactUrl(`/x?a=1&${name}=S3CRET&b=2`)).toBe(`/x?a=1&${name}=[REDACTED]&b=2`);
      expect(redactUrl(`/x?${name.toUpperCase()}=S3CRET`)).toBe(`/x?${name.toUpperCase()}=[REDACTED]`);
    }
  });

  it('redacts the signed photo URL and a bearer token tried in the query', () => {
    expect(redactUrl('/api/photologs/image/0191abc?t=eyJ.sig-value_1')).toBe('/api/photologs/image/0191abc?t=[REDACTED]');
    expect(redactUrl('/api/auth/me?jwt=eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ1In0.c2ln')).toBe('/api/auth/me?jwt=[REDACTED]');
  });

  it('sees through percent-encoded names, repeated names and ;-separated pairs', () => {
    expect(redactUrl('/i?%74=S3CRET')).toBe('/i?%74=[REDACTED]');
    expect(redactUrl('/i?api%5Fkey=S3CRET')).toBe('/i?api%5Fkey=[REDACTED]');
    expect(redactUrl('/i?t=A&t=B')).toBe('/i?t=[REDACTED]&t=[REDACTED]');
    expect(redactUrl('/i?a=1;t=S3CRET')).toBe('/i?a=1;t=[REDACTED]');
    expect(redactUrl('/i?t=abc;def')).toBe('/i?t=[REDACTED]');
  });

  it('redacts the reset token in /reset-password/<token>', () => {
    expect(redactUrl('/reset-password/0123abcdef?x=1')).toBe('/reset-password/[REDACTED]?x=1');
    expect(redactUrl('GET https://skald.example/reset-password/0123abcdef failed')).toBe('GET https://skald.example/reset-password/[REDACTED] failed');
  });

  it('redacts key=value pairs in free text such as error messages', () => {
    expect(redactUrl('database password=hunter2 exploded')).toBe('database password=[REDACTED] exploded');
    // The value runs to whitespace: a comma may be part of a URL value, so it is redacted with it.
    expect(redactUrl('failed (apiKey=abc, retrying)')).toBe('failed (apiKey=[REDACTED] retrying)');
  });

  it('leaves other parameters and look-alike names alone', () => {
    expect(redactUrl('/logs/my?serverId=s1&page=2&at=5&x_t=1&monkey=2')).toBe('/logs/my?serverId=s1&page=2&at=5&x_t=1&monkey=2');
    expect(redactUrl('/reset-passwords/abc')).toBe('/reset-passwords/abc');
  });
});
