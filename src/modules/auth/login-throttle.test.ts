import { describe, expect, it } from 'vitest';
import { addressKey, createLoginThrottle } from './login-throttle.js';

const limits = { maxFailuresPerAccount: 3, maxFailuresPerAddress: 5, windowSeconds: 60 };

describe('login throttle', () => {
  it('blocks an account after its failures and frees it when the oldest leaves the window', () => {
    const throttle = createLoginThrottle(limits);
    for (let t = 0; t < 3; t++) {
      expect(throttle.retryAfter('a@x', '1.1.1.1', 100 + t)).toBe(0);
      throttle.recordFailure('a@x', '1.1.1.1', 100 + t);
    }
    expect(throttle.retryAfter('a@x', '1.1.1.1', 103)).toBe(57);
    expect(throttle.retryAfter('a@x', '2.2.2.2', 103)).toBe(57);
    expect(throttle.retryAfter('b@x', '1.1.1.1', 103)).toBe(0);
    expect(throttle.retryAfter('a@x', '1.1.1.1', 160)).toBe(0);
  });

  it('blocks an address after failures across accounts', () => {
    const throttle = createLoginThrottle(limits);
    for (let i = 0; i < 5; i++) throttle.recordFailure(`user${i}@x`, '9.9.9.9', 10);
    expect(throttle.retryAfter('someone-new@x', '9.9.9.9', 11)).toBe(59);
    expect(throttle.retryAfter('someone-new@x', '8.8.8.8', 11)).toBe(0);
  });

  it('clears the account on success', () => {
    const throttle = createLoginThrottle(limits);
    for (let i = 0; i < 3; i++) throttle.recordFailure('a@x', '1.1.1.1', 10);
    throttle.recordSuccess('a@x');
    expect(throttle.retryAfter('a@x', '3.3.3.3', 11)).toBe(0);
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
    expect(throttle.retryAfter('a@x', '1.1.1.1', 11)).toBe(0);
  });

  it('drops accounts whose failures left the window, and never holds more than maxKeys', () => {
    const throttle = createLoginThrottle({ ...limits, maxKeys: 50 });
    for (let i = 0; i < 40; i++) throttle.recordFailure(`old${i}@x`, `10.0.0.${i}`, 100);
    expect(throttle.sizes()).toEqual({ accounts: 40, addresses: 40 });
    // One failure after the window: every earlier entry is gone.
    throttle.recordFailure('new@x', '10.1.0.1', 200);
    expect(throttle.sizes()).toEqual({ accounts: 1, addresses: 1 });
    for (let i = 0; i < 500; i++) throttle.recordFailure(`flood${i}@x`, `10.2.${i >> 8}.${i & 255}`, 300);
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
  });
});
