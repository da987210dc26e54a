import { describe, expect, it } from 'vitest';
import { likePattern } from './contains.js';

describe('likePattern', () => {
  it('lowers the term and escapes the wildcards and the escape character', () => {
    expect(likePattern('Ab%c_d\\e')).toBe('%ab\\%c\\_d\\\\e%');
  });
});
