import { describe, expect, it } from 'vitest';
import { startUpLine } from './listen-url.js';

describe('startUpLine', () => {
  it('names the address Warden listens on when it is one a browser can open', () => {
    expect(startUpLine('127.0.0.1', 8000)).toBe('Warden is ready: API docs at http://127.0.0.1:8000/docs');
    expect(startUpLine('warden.internal', 9000)).toBe('Warden is ready: API docs at http://warden.internal:9000/docs');
    expect(startUpLine('::1', 8000)).toBe('Warden is ready: API docs at http://[::1]:8000/docs');
  });

  it('never names a wildcard address: loopback for this machine, the machine name for others', () => {
    expect(startUpLine('0.0.0.0', 8000, 'build-host')).toBe(
      'Warden is ready: API docs at http://127.0.0.1:8000/docs on this machine, http://build-host:8000/docs from others',
    );
    expect(startUpLine('::', 8000, 'build-host')).toBe(
      'Warden is ready: API docs at http://[::1]:8000/docs on this machine, http://build-host:8000/docs from others',
    );
    expect(startUpLine('0.0.0.0', 8000, 'build-host')).not.toContain('0.0.0.0');
  });

  it('names the console first when it is built', () => {
    expect(startUpLine('127.0.0.1', 8000, 'build-host', true)).toBe('Warden is ready: console at http://127.0.0.1:8000/, API docs at http://127.0.0.1:8000/docs');
    expect(startUpLine('0.0.0.0', 8000, 'build-host', true)).toBe(
      'Warden is ready: console at http://127.0.0.1:8000/, API docs at http://127.0.0.1:8000/docs on this machine, ' +
        'http://build-host:8000/ and http://build-host:8000/docs from others',
    );
  });
});
