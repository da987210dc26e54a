import { describe, expect, it } from 'vitest';
import { buildLogQuery, logMatcher, parseLogQuery } from './logql.js';
import { quantile } from './query.js';
import { parseTraceQuery } from './traceql.js';

describe('the LogQL subset', () => {
  it('matches label matchers and line filters', () => {
    const m = logMatcher(parseLogQuery('{service_name="warden", level!="debug", job=~"eval.*", env!~"test|dev"} |= "failed" != "retry"'));
    expect(m.labels({ service_name: 'warden', level: 'warn', job: 'evaluation', env: 'prod' })).toBe(true);
    expect(m.labels({ service_name: 'warden', level: 'debug', job: 'evaluation', env: 'prod' })).toBe(false);
    expect(m.labels({ service_name: 'warden', level: 'warn', job: 'evaluation', env: 'dev' })).toBe(false);
    expect(m.line('call failed')).toBe(true);
    expect(m.line('call failed, retry')).toBe(false);
  });

  it('builds the query the filter parameters stand for', () => {
    expect(buildLogQuery({ service_name: 'dome', level: undefined }, 'say "hi"')).toBe('{service_name="dome"} |= "say \\"hi\\""');
    expect(parseLogQuery(buildLogQuery({ service_name: 'dome' }, 'say "hi"')).filters).toEqual([{ op: '|=', text: 'say "hi"' }]);
  });

  it('names what it does not support', () => {
    expect(() => parseLogQuery('{a="b"} | logfmt')).toThrow(/pipeline stages/);
    expect(() => parseLogQuery('sum(rate({a="b"}[5m]))')).toThrow(/metric queries/);
    expect(() => parseLogQuery('{a="b"} |~ "x"')).toThrow(/regular-expression line filters/);
    expect(() => parseLogQuery('{a=~"("}')).toThrow(/invalid regular expression/);
    expect(() => parseLogQuery('{}')).toThrow(/at least one label matcher/);
  });
});

describe('the TraceQL subset', () => {
  it('reads attribute equalities, intrinsics and durations', () => {
    const query = '{ .gen_ai.request.model = "gpt-4o" && span.n != 3 && resource.service.name = "dome" && status = error && duration >= 1.5s }';
    expect(parseTraceQuery(query)).toEqual([
      { field: 'attribute', key: 'gen_ai.request.model', op: '=', value: 'gpt-4o' },
      { field: 'attribute', key: 'n', op: '!=', value: 3 },
      { field: 'service', op: '=', value: 'dome' },
      { field: 'status', op: '=', value: 'error' },
      { field: 'duration', op: '>=', ns: 1_500_000_000n },
    ]);
    expect(parseTraceQuery('{}')).toEqual([]);
  });

  it('names what it does not support', () => {
    expect(() => parseTraceQuery('{ .a = 1 } >> { .b = 2 }')).toThrow(/structural/);
    expect(() => parseTraceQuery('{ .a = 1 } | count() > 1')).toThrow(/pipelines/);
    expect(() => parseTraceQuery('{ .a = 1 || .b = 2 }')).toThrow(/\|\|/);
    expect(() => parseTraceQuery('{ .a > 1 }')).toThrow(/= or !=/);
    expect(() => parseTraceQuery('{ resource.host.name = "x" }')).toThrow(/resource attributes/);
    expect(() => parseTraceQuery('.a = 1')).toThrow(/spanset filter/);
  });
});

describe('quantile', () => {
  it('answers the nearest rank of weighted values', () => {
    const points: Array<[number, number]> = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((v) => [v, 1]);
    expect(quantile(points, 0.5)).toBe(5);
    expect(quantile(points, 0.9)).toBe(9);
    expect(quantile(points, 0.99)).toBe(10);
    expect(quantile([[0.1, 98], [5, 2]], 0.99)).toBe(5);
    expect(quantile([], 0.5)).toBe(0);
  });
});
