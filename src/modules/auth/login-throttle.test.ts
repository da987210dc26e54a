import { describe, expect, it } from 'vitest';
import { addressKey, createLoginThrottle } from './login-throttle.js';

const limits = { maxFailuresPerAccount: 3, maxFailuresPerAddress: 5, windowSeconds: 60 };

/** An attempt that was let through (and counted as a failure until it reports success). */
const allowed = (r: { wait: number }) => 'attempt' in r;

describe('login throttle', () => {
  it('blocks an account after its failures and frees it when the oldest leaves the window', () => {
    const throttle = createLoginThrottle(limits);
    for (let t = 0; t < 3; t++) expect(allowed(throttle.reserve('a@x', '1.1.1.1', 100 + t))).toBe(true);
    expect(throttle.reserve('a@x', '1.1.1.1', 103)).toEqual({ wait: 57 });
    expect(throttle.reserve('a@x', '2.2.2.2', 103)).toEqual({ wait: 57 });
    expect(allowed(throttle.reserve('b@x', '1.1.1.1', 103))).toBe(true);
    expect(allowed(throttle.reserve('a@x', '1.1.1.1', 160))).toBe(true);
  });

  it('blocks an address after failures across accounts', () => {
    const throttle = createLoginThrottle(limits);
    for (let i = 0; i < 5; i++) expect(allowed(throttle.reserve(`user${i}@x`, '9.9.9.9', 10))).toBe(true);
    expect(throttle.reserve('someone-new@x', '9.9.9.9', 11)).toEqual({ wait: 59 });
    expect(allowed(throttle.reserve('someone-new@x', '8.8.8.8', 11))).toBe(true);
  });

  it('clears the account on success', () => {
    const throttle = createLoginThrottle(limits);
    const attempts = [0, 1, 2].map(() => throttle.reserve('a@x', '1.1.1.1', 10));
    expect(throttle.reserve('a@x', '3.3.3.3', 10)).toEqual({ wait: 60 });
    const last = attempts[2]!;
    if ('attempt' in last) last.attempt.succeeded();
    expect(allowed(throttle.reserve('a@x', '3.3.3.3', 11))).toBe(true);
  });
});

describe('login throttle: reservations, memory bound, address keys', () => {
  it('counts a reserved attempt at once and gives it back on success', () => {
    const throttle = createLoginThrottle(limits);
    const first = throttle.reserve('a@x', '1.1.1.1', 10);
    const second = throttle.reserve('a@x', '1.1.1.1', 10);
    const third = throttle.reserve('a@x', '1.1.1.1', 10);
    expect([first, second, third].every((r) => 'attempt' in r)).toBe(true);
    // Three attempts in flight, none finished: a fourth must wait.
    expect(throttle.reserve('a@x', '1.1.1.1', 10)).toEqual({ wait: 60 });
    if ('attempt' in third) third.attempt.succeeded();
    expect(allowed(throttle.reserve('a@x', '1.1.1.1', 11))).toBe(true);
  });

  it('drops accounts whose failures left the window, and never holds more than maxKeys', () => {
    const throttle = createLoginThrottle({ ...limits, maxKeys: 50 });
    for (let i = 0; i < 40; i++) throttle.reserve(`old${i}@x`, `10.0.0.${i}`, 100);
    expect(throttle.sizes()).toEqual({ accounts: 40, addresses: 40 });
    // One failure after the window: every earlier entry is gone.
    throttle.reserve('new@x', '10.1.0.1', 200);
    expect(throttle.sizes()).toEqual({ accounts: 1, addresses: 1 });
    for (let i = 0; i < 500; i++) throttle.reserve(`flood${i}@x`, `10.2.${i >> 8}.${i & 255}`, 300);
    expect(throttle.sizes()).toEqual({ accounts: 50, addresses: 50 });
  });

  it('keys IPv6 clients by /64 and IPv4-mapped addresses as IPv4', () => {
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('10.1.2.3%x')).toBe('10.1.2.3');
  });
});
