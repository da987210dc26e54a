import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { Agent } from '../modules/agents/agents.schemas.js';
import { PolicyRule, RuleListResponse } from '../modules/rules/rules.schemas.js';
import { buildSerializer, nullableAsTypeList } from './serialization.js';
import { Nullable, Uuid } from './schemas.js';

const serializerFor = (schema: unknown) => buildSerializer(undefined, {})({ method: 'GET', url: '/x', httpStatus: '200', schema });
/** Fastify's default serializer compiler, on the schema as declared. */
const declaredSerializer = (schema: unknown) => SerializerSelector()(undefined, {})({ method: 'GET', url: '/x', httpStatus: '200', schema });

const rule = {
  id: '01a14252-ebc8-78e6-aad7-a68e7040c603',
  policy_id: '01a14252-ebc8-72f8-a89f-303d2f6463ef',
  rule_id: 'R-1',
  rule_type: 'obligation',
  action: 'use',
  target: 'customer_data',
  assignee: null,
  constraints: [
    { condition_type: 'data', field: 'data.classification', operator: 'in', value: ['pii', 'phi'] },
    { free: 'form', nested: { kept: [1, 2] } },
  ],
  constraint_logic: 'all',
  consequence: { action: 'warn', severity: 'critical', message: null, extra: 'kept' },
  natural_language: 'The agent must not send "personal data" \u2028 out of the region.',
  provenance: {
    extracted_by: 'llm',
    model_used: null,
    confidence_score: 0.9,
    source_location: { section: '4.2', paragraph: null, char_start: 1200, char_end: 1290, source_text: 'Personal data stays here.' },
  },
  category: null,
  tags: ['gdpr'],
  status: 'approved',
  reviewed_by: '019ab996-c468-7847-931c-d073c6f1ce11',
  reviewed_at: 1792114153,
  review_notes: null,
  created_at: 1792114093,
  updated_at: 1792114153,
};

describe('nullableAsTypeList', () => {
  it('writes a nullable plain type as a type list, keeping its keywords and the union siblings', () => {
    const schema = Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'who' });
    expect(nullableAsTypeList(schema)).toEqual({ description: 'who', type: ['string', 'null'], format: 'uuid' });
    expect(nullableAsTypeList(Type.Union([Type.Null(), Type.Integer()]))).toEqual({ type: ['integer', 'null'] });
  });

  it('rewrites at any depth: properties, items, nested objects', () => {
    const schema = Type.Object({ list: Type.Array(Type.Object({ at: Nullable(Type.Integer()) })), inner: Nullable(Type.Object({ id: Nullable(Uuid()) })) });
    const out = nullableAsTypeList(schema) as any;
    expect(out.properties.list.items.properties.at).toEqual({ type: ['integer', 'null'] });
    expect(out.properties.inner.type).toEqual(['object', 'null']);
    expect(out.properties.inner.properties.id).toEqual({ type: ['string', 'null'], format: 'uuid' });
  });

  it('leaves unions it cannot carry as a type list alone', () => {
    const literal = Nullable(Type.Literal('x'));
    const union = Nullable(Type.Union([Type.String(), Type.Integer()]));
    const three = Type.Union([Type.String(), Type.Integer(), Type.Null()]);
    const noNull = Type.Union([Type.String(), Type.Integer()]);
    for (const schema of [literal, union, three, noNull]) expect(nullableAsTypeList(schema)).toEqual(JSON.parse(JSON.stringify(schema)));
  });

  it('does not lift a default out of the option, nor rewrite data keywords', () => {
    const optional = Type.Object({ a: Type.Optional(Nullable(Type.String({ default: 'D' }))) });
    expect(serializerFor(optional)({})).toBe(declaredSerializer(optional)({}));
    expect(serializerFor(optional)({})).toBe('{}');
    const required = Type.Object({ a: Nullable(Type.String({ default: 'D' })) });
    expect(() => declaredSerializer(required)({})).toThrow(/required/);
    expect(() => serializerFor(required)({})).toThrow(/required/);
    const data = { default: { anyOf: [{ type: 'string' }, { type: 'null' }] }, enum: [{ anyOf: [{ type: 'string' }, { type: 'null' }] }] };
    expect(nullableAsTypeList({ type: 'object', ...data })).toEqual({ type: 'object', ...data });
  });

  it('does not change the schema it is given', () => {
    const schema = Type.Object({ a: Nullable(Type.String()) });
    const before = JSON.stringify(schema);
    nullableAsTypeList(schema);
    expect(JSON.stringify(schema)).toBe(before);
  });
});

describe('buildSerializer', () => {
  it('writes a rule page exactly as fast-json-stringify on the declared schema does', () => {
    const variants = [
      rule,
      { ...rule, provenance: null, tags: null, reviewed_by: null, reviewed_at: null, category: 'privacy', target: null, assignee: 'user' },
      {
        ...rule,
        provenance: { ...rule.provenance, source_location: null },
        review_notes: 'ok',
        consequence: { action: 'block', severity: 'low', message: 'no' },
      },
    ];
    const page = { results: variants, count: 3 };
    const written = serializerFor(RuleListResponse)(page);
    expect(written).toBe(declaredSerializer(RuleListResponse)(page));
    expect(JSON.parse(written)).toEqual(page);
  });

  it('writes an agent as fast-json-stringify on the declared schema does, nulls included', () => {
    const nulls = Object.fromEntries(Object.keys((Agent as { properties: object }).properties).map((key) => [key, null]));
    const agent = {
      ...nulls,
      id: '01a14252-ebc8-78e6-aad7-a68e7040c603',
      agent_name: 'a',
      model_name: 'm',
      created_at: 1,
      updated_at: 2,
      ttt_days: 1.5,
      test_score: '0.5',
    };
    expect(serializerFor(Agent)(agent)).toBe(declaredSerializer(Agent)(agent));
  });

  it('still refuses a value of the wrong type in a nullable field', () => {
    expect(() => serializerFor(PolicyRule)({ ...rule, reviewed_at: 'yesterday' })).toThrow(TypeError);
    expect(() => serializerFor(PolicyRule)({ ...rule, tags: 'gdpr' })).toThrow(TypeError);
  });

  it('writes values inside a nullable list as inside any list: converted to the declared type (docs/decisions.md)', () => {
    const written = JSON.parse(serializerFor(PolicyRule)({ ...rule, tags: [1, true] }));
    expect(written.tags).toEqual(['1', 'true']);
    expect(() => declaredSerializer(PolicyRule)({ ...rule, tags: [1, true] })).toThrow();
    const plainList = Type.Object({ tags: Type.Array(Type.String()) });
    expect(declaredSerializer(plainList)({ tags: [1, true] })).toBe('{"tags":["1","true"]}');
  });
});
