import { describe, expect, it } from 'vitest';
import { createLoginThrottle } from './login-throttle.js';

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
