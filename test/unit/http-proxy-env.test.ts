// Which proxy a request takes (src/engines/http-proxy-env.ts), rule by rule as curl and undici's
// EnvHttpProxyAgent read the variables: the scheme picks the variable, lower case wins, NO_PROXY's host,
// domain-suffix, port and `*` entries send a host direct.
import { describe, expect, it } from 'vitest';
import { bypassed, proxyFor, proxyUrl } from '../../src/engines/http-proxy-env.js';

const u = (s: string) => new URL(s);
const via = (target: string, env: NodeJS.ProcessEnv) => proxyFor(u(target), env)?.href;

describe('proxyFor', () => {
  it('takes HTTPS_PROXY for https targets and HTTP_PROXY for http ones', () => {
    const env = { HTTPS_PROXY: 'http://s.corp:3128', HTTP_PROXY: 'http://p.corp:3128' };
    expect(via('https://api.openai.com/v1', env)).toBe('http://s.corp:3128/');
    expect(via('http://localhost:11434/v1', env)).toBe('http://p.corp:3128/');
    expect(via('https://api.openai.com/v1', { HTTP_PROXY: 'http://p.corp:3128' })).toBeUndefined();
  });

  it('prefers the lower-case variable, skips blank ones, and reads a bare host:port as http', () => {
    expect(via('https://a.io', { https_proxy: 'http://low:1', HTTPS_PROXY: 'http://up:2' })).toBe('http://low:1/');
    expect(via('https://a.io', { https_proxy: '  ', HTTPS_PROXY: 'up:2' })).toBe('http://up:2/');
    expect(via('https://a.io', {})).toBeUndefined();
  });

  it('refuses a proxy it cannot speak to, without echoing its credentials', () => {
    expect(() => proxyUrl('socks5://u:pw@h:1080')).toThrow(/socks5/);
    expect(() => proxyUrl('http://u:pw@[bad')).toThrow(/\[REDACTED\]/);
  });
});

describe('NO_PROXY', () => {
  const cases: Array<[string, string, boolean]> = [
    ['example.com', 'https://example.com/x', true],
    ['example.com', 'https://api.example.com/x', true],
    ['example.com', 'https://notexample.com/x', false],
    ['.example.com', 'https://api.example.com/x', true],
    ['.example.com', 'https://example.com/x', true],
    ['*.example.com', 'https://api.example.com/x', true],
    ['EXAMPLE.com', 'https://Api.Example.COM/x', true],
    ['example.com:8443', 'https://example.com:8443/x', true],
    ['example.com:8443', 'https://example.com/x', false],
    ['example.com:443', 'https://example.com/x', true],
    ['localhost:80', 'http://localhost/x', true],
    ['127.0.0.1', 'http://127.0.0.1:8080/x', true],
    ['127.0.0.2', 'http://127.0.0.1:8080/x', false],
    ['[::1]:8080', 'http://[::1]:8080/x', true],
    ['::1', 'http://[::1]:8080/x', true],
    ['*', 'https://anything.io/x', true],
    ['a.io, b.io  c.io', 'https://c.io/x', true],
    ['', 'https://c.io/x', false],
  ];
  it.each(cases)('%j for %s → direct: %s', (rule, target, direct) => {
    expect(bypassed(u(target), rule)).toBe(direct);
  });

  it('lower-case no_proxy wins and sends the host direct', () => {
    expect(via('https://x.internal', { HTTPS_PROXY: 'http://p:1', no_proxy: '.internal', NO_PROXY: 'other' })).toBeUndefined();
    expect(via('https://x.internal', { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'other' })).toBe('http://p:1/');
  });
});
