import { describe, expect, it } from 'vitest';
import {
  boundIntegers,
  DEFAULT_MAX_ITEMS,
  MAX_VALIDATION_ISSUES,
  nestsDeeperThan,
  nulCharacterAt,
  parseIntegerText,
  toValidationIssues,
  validatorCompiler,
} from './validation.js';

describe('boundIntegers', () => {
  it('bounds unbounded integers, keeps given bounds and leaves the original alone', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer', minimum: 1, maximum: 10 }, c: { anyOf: [{ type: 'integer' }, { type: 'null' }] } },
    };
    const bounded = boundIntegers(schema) as { properties: Record<string, Record<string, unknown>> };
    expect(bounded.properties.a).toEqual({ type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
    expect(bounded.properties.b).toEqual({ type: 'integer', minimum: 1, maximum: 10 });
    expect((bounded.properties.c?.anyOf as unknown[])[0]).toEqual({ type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
    expect(schema.properties.a).toEqual({ type: 'integer' });
  });
});

describe('nestsDeeperThan', () => {
  const nest = (n: number) => JSON.parse(`${'['.repeat(n)}${']'.repeat(n)}`);
  it('measures depth without recursion', () => {
    expect(nestsDeeperThan({ a: { b: [1, 2] } }, 32)).toBe(false);
    expect(nestsDeeperThan(nest(32), 32)).toBe(false);
    expect(nestsDeeperThan(nest(33), 32)).toBe(true);
    expect(nestsDeeperThan(nest(100_000), 32)).toBe(true);
    expect(nestsDeeperThan('text', 0)).toBe(false);
  });
});

describe('nulCharacterAt', () => {
  it('gives the loc of the first NUL in a string or a key, and nothing for clean input', () => {
    expect(nulCharacterAt({ a: ['x', { b: 'y\u0000' }] })).toEqual(['a', 1, 'b']);
    expect(nulCharacterAt({ 'k\u0000': 1 })).toEqual(['k\u0000']);
    expect(nulCharacterAt('\u0000')).toEqual([]);
    expect(nulCharacterAt({ a: 'ok', b: [1, null, '😀', 'é'] })).toBeUndefined();
    expect(nulCharacterAt(undefined)).toBeUndefined();
  });
});

describe('validatorCompiler', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      nested: { anyOf: [{ type: 'object', properties: { a: { type: 'integer' } } }, { type: 'null' }] },
      list: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
      free: { type: 'object', additionalProperties: true },
    },
    required: ['name'],
  };

  it('drops the fields a body schema does not declare, at every depth, once the body is valid', () => {
    const validate = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/x' }) as (data: unknown) => boolean;
    const body = { name: 'n', unknown: 1, nested: { a: 1, b: 2 }, list: [{ id: 'x', hidden: true }], free: { kept: { deep: 1 } } };
    expect(validate(body)).toBe(true);
    expect(body).toEqual({ name: 'n', nested: { a: 1 }, list: [{ id: 'x' }], free: { kept: { deep: 1 } } });
  });

  it('drops unknown query parameters too, and leaves an invalid body as it was', () => {
    const query = validatorCompiler({ schema, httpPart: 'querystring', method: 'GET', url: '/x' }) as (data: unknown) => boolean;
    const params = { name: 'n', other: 'x' };
    expect(query(params)).toBe(true);
    expect(params).toEqual({ name: 'n' });
    const validate = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/x' }) as (data: unknown) => boolean;
    const invalid = { unknown: 1 };
    expect(validate(invalid)).toBe(false);
    expect(invalid).toEqual({ unknown: 1 });
  });
});

describe('integers in a query string', () => {
  const schema = {
    type: 'object',
    properties: { limit: { type: 'integer', minimum: 1, default: 100 }, offset: { type: 'integer', minimum: 0 } },
    required: ['limit'],
  };
  const query = validatorCompiler({ schema, httpPart: 'querystring', method: 'GET', url: '/x' }) as ((data: unknown) => boolean) & { errors: never };
  const issuesOf = (data: Record<string, unknown>) => (query(data) ? [] : toValidationIssues(query.errors, 'querystring'));

  it('reads what pydantic reads: spaces, a sign, leading zeros, a fraction of zeros', () => {
    expect(parseIntegerText(' 5')).toBe(5);
    expect(parseIntegerText('+5')).toBe(5);
    expect(parseIntegerText('05')).toBe(5);
    expect(parseIntegerText('-3 ')).toBe(-3);
    expect(parseIntegerText('7.00')).toBe(7);
    for (const text of ['1e3', '0x10', '0b1', '0o7', '', ' ', '1.5', '1_000', 'Infinity', '5 5', '+', '.0']) expect(parseIntegerText(text)).toBeUndefined();
  });

  it('answers int_parsing where Number() would have read a number, and nothing else for that field', () => {
    for (const limit of ['1e3', '0x10', '-1e3', ' ']) {
      expect(issuesOf({ limit })).toEqual([{ loc: ['query', 'limit'], msg: expect.any(String), type: 'int_parsing' }]);
    }
    expect(issuesOf({ limit: '5', offset: '0x10' })).toEqual([{ loc: ['query', 'offset'], msg: expect.any(String), type: 'int_parsing' }]);
  });

  it('accepts the spellings pydantic accepts, as numbers', () => {
    const data: Record<string, unknown> = { limit: ' 5', offset: '+05' };
    expect(query(data)).toBe(true);
    expect(data).toEqual({ limit: 5, offset: 5 });
  });
});

describe('the cost of a bad body', () => {
  type Compiled = ((data: unknown) => boolean) & { errors: never };
  const compile = (schema: object) => validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/x' }) as Compiled;
  const schema = {
    type: 'object',
    properties: {
      tags: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 16 },
      free: { anyOf: [{ type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } }, { type: 'null' }] },
    },
  };

  it('refuses an array over its bound for its length alone, without an issue per item', () => {
    const validate = compile(schema);
    expect(validate({ tags: Array.from({ length: 100_000 }, () => '') })).toBe(false);
    expect(toValidationIssues(validate.errors, 'body')).toEqual([{ loc: ['body', 'tags'], msg: 'List should have at most 16 items', type: 'too_long' }]);
  });

  it('gives an array whose schema states no bound DEFAULT_MAX_ITEMS, nested in a union too', () => {
    const validate = compile(schema);
    expect(validate({ free: Array.from({ length: DEFAULT_MAX_ITEMS }, () => ({ n: 1 })) })).toBe(true);
    expect(validate({ free: Array.from({ length: DEFAULT_MAX_ITEMS + 1 }, () => ({ n: 'x' })) })).toBe(false);
    expect(toValidationIssues(validate.errors, 'body')).toEqual([
      { loc: ['body', 'free'], msg: `List should have at most ${DEFAULT_MAX_ITEMS} items`, type: 'too_long' },
    ]);
  });

  it('groups 100,000 errors (50,000 locations) in linear time and answers at most MAX_VALIDATION_ISSUES of them', () => {
    const errors = Array.from({ length: 50_000 }, (_, i) => [
      { instancePath: `/tags/${i}`, schemaPath: '#/minLength', keyword: 'minLength', params: { limit: 1 }, message: 'short' },
      { instancePath: `/tags/${i}`, schemaPath: '#/type', keyword: 'type', params: { type: 'null' }, message: 'null' },
    ]).flat();
    const started = performance.now();
    const issues = toValidationIssues(errors, 'body');
    // Quadratic grouping took minutes here; linear takes milliseconds (generous for a loaded machine).
    expect(performance.now() - started).toBeLessThan(2000);
    expect(issues).toHaveLength(MAX_VALIDATION_ISSUES);
    expect(issues[0]).toEqual({ loc: ['body', 'tags', 0], msg: 'String should have at least 1 character', type: 'string_too_short' });
  });
});
