import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ColumnDecodeError, decodeJsonColumn, decodeNullableJsonColumn } from './json-columns.js';

/** A shape like the stored ones: nested objects, a union, optional and nullable fields, a bounded list. */
const Stored = Type.Object({
  name: Type.String({ minLength: 1 }),
  kind: Type.Union([Type.Literal('rule'), Type.Literal('policy')]),
  score: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  owner: Type.Union([Type.Null(), Type.Object({ id: Type.String() })]),
  tags: Type.Array(Type.String(), { maxItems: 3 }),
});

describe('decodeJsonColumn (the schema compiled once)', () => {
  it('answers what was stored when it has the shape, the same on every call', () => {
    const text = JSON.stringify({ name: 'a', kind: 'rule', owner: null, tags: ['x'] });
    expect(decodeJsonColumn(Stored, text, 't.c')).toEqual({ name: 'a', kind: 'rule', owner: null, tags: ['x'] });
    expect(decodeJsonColumn(Stored, text, 't.c')).toEqual(JSON.parse(text));
    expect(decodeNullableJsonColumn(Stored, null, 't.c')).toBeNull();
  });

  it.each([
    [{ name: '', kind: 'rule', owner: null, tags: [] }, '/name'],
    [{ name: 'a', kind: 'other', owner: null, tags: [] }, '/kind'],
    [{ name: 'a', kind: 'rule', score: 2, owner: null, tags: [] }, '/score'],
    [{ name: 'a', kind: 'rule', owner: { id: 1 }, tags: [] }, '/owner'],
    [{ name: 'a', kind: 'rule', owner: null, tags: ['1', '2', '3', '4'] }, '/tags'],
    [{ name: 'a', kind: 'rule', owner: null, tags: [7] }, '/tags/0'],
  ])('refuses %j, naming where it differs', (value, where) => {
    const decode = () => decodeJsonColumn(Stored, JSON.stringify(value), 't.c');
    expect(decode).toThrow(ColumnDecodeError);
    expect(decode).toThrow(new RegExp(`^The stored t\\.c is not what Warden expects at ${where}`));
  });

  it('refuses text that is not JSON', () => {
    expect(() => decodeJsonColumn(Stored, '{"name":', 't.c')).toThrow(new ColumnDecodeError('The stored t.c is not valid JSON'));
  });
});
