import { describe, expect, it } from 'vitest';
import { listMethods } from './catalogue.js';
import { compileDomeConfig } from './engine.js';
import { MASKED_SECRET, maskConfigSecrets, toConsoleShape, toDomeShape } from './shapes.js';
import { GuardConfigError } from './types.js';

const OFFLINE = { llmAvailable: false };

/** The GuardConfigError a configuration raises: its path, type and message. */
function errorOf(raw: unknown, options = OFFLINE): { path: Array<string | number>; type: string; message: string } {
  try {
    compileDomeConfig(raw, options);
  } catch (error) {
    if (error instanceof GuardConfigError) return { path: error.path, type: error.type, message: error.message };
    throw error;
  }
  throw new Error('the configuration was accepted');
}

const PI = { type: 'security', methods: ['prompt-injection-warden'] };

describe('Dome configuration shapes', () => {
  it("reads Dome's dictionary with named and inline guards, keeping its shape as the source", () => {
    const raw = {
      'input-guards': ['pi', { tox: { type: 'moderation', methods: ['moderation-flashtext'] } }],
      'output-guards': [{ tox: { type: 'moderation', methods: ['moderation-flashtext'] } }],
      pi: PI,
    };
    const config = compileDomeConfig(raw, OFFLINE);
    expect(config.inputGuards).toEqual(['pi', 'tox']);
    expect(config.outputGuards).toEqual(['tox']);
    expect(config.methods).toEqual(['prompt-injection-warden', 'moderation-flashtext']);
    expect(config.source).toEqual(raw);
    expect(config.source).not.toBe(raw);
    expect(config.usesPolicyRules).toBe(false);
  });

  it("reads Dome's TOML shape, options inside [guardrail]", () => {
    const config = compileDomeConfig({ guardrail: { 'input-guards': ['pi'], 'input-early-exit': false, agent_id: 'a-1' }, pi: PI }, OFFLINE);
    expect(config.inputGuards).toEqual(['pi']);
  });

  it("reads the Console's underscore shape, guard sections under guards", () => {
    const raw = { input_guards: ['pi'], output_guards: [], guards: { pi: { type: 'security', methods: ['prompt-injection-warden'], early_exit: false } } };
    const config = compileDomeConfig(raw, OFFLINE);
    expect(config.inputGuards).toEqual(['pi']);
    expect(config.source).toEqual(raw);
  });

  it('accepts an empty configuration (no guards)', () => {
    expect(compileDomeConfig({}, OFFLINE).methods).toEqual([]);
  });

  it('converts between the shapes, both ways, without injecting defaults', () => {
    const dome = {
      guardrail: { 'input-guards': ['pi', { tox: { type: 'moderation', methods: ['moderation-flashtext'] } }], 'input-blocked-message': 'No.' },
      'on-error': 'fail_closed',
      pi: PI,
      spare: { type: 'privacy', methods: ['detect-secrets'] },
    };
    const console = toConsoleShape(dome);
    expect(console).toEqual({
      input_guards: ['pi', 'tox'],
      output_guards: [],
      guards: { pi: PI, tox: { type: 'moderation', methods: ['moderation-flashtext'] }, spare: { type: 'privacy', methods: ['detect-secrets'] } },
      input_blocked_message: 'No.',
      on_error: 'fail_closed',
    });
    expect(compileDomeConfig(console, OFFLINE).inputGuards).toEqual(['pi', 'tox']);
    expect(toDomeShape(console)).toEqual({
      'input-guards': ['pi', 'tox'],
      'output-guards': [],
      'input-blocked-message': 'No.',
      'on-error': 'fail_closed',
      pi: PI,
      tox: { type: 'moderation', methods: ['moderation-flashtext'] },
      spare: { type: 'privacy', methods: ['detect-secrets'] },
    });
  });
});

describe('maskConfigSecrets', () => {
  it("masks Dome's credential parameters wherever they are, and nothing else", () => {
    const raw = {
      guardrail: { 'input-guards': [{ j: { type: 'security', methods: ['security-llm'], 'security-llm': { api_key: 'gsk_live_value', model_name: 'm' } } }] },
      p: { type: 'policy', methods: ['policy-sections'], 'policy-sections': { aws_secret_access_key: 'abc', api_key: '' } },
    };
    const masked = maskConfigSecrets(raw);
    expect(JSON.stringify(masked)).not.toContain('gsk_live_value');
    expect(masked.p['policy-sections']).toEqual({ aws_secret_access_key: MASKED_SECRET, api_key: '' });
    expect(masked.guardrail['input-guards'][0]?.j['security-llm'].model_name).toBe('m');
    expect(JSON.stringify(raw)).toContain('gsk_live_value');
  });
});

describe('Dome configuration errors', () => {
  const cases: Array<[string, unknown, Array<string | number>, string, RegExp?]> = [
    ['not an object', [], [], 'dict_type'],
    ['mixed shapes', { input_guards: [], 'output-guards': [] }, ['output-guards'], 'extra_forbidden', /one shape/],
    ['an unknown top-level scalar', { 'input-guards': [], verbose: true }, ['verbose'], 'extra_forbidden'],
    ['an unknown Console key', { input_guards: [], pi: PI }, ['pi'], 'extra_forbidden'],
    ['guards not a list', { 'input-guards': 'pi', pi: PI }, ['input-guards'], 'list_type'],
    ['a guard not defined', { 'input-guards': ['pi'] }, ['input-guards', 0], 'value_error', /guard 'pi' is not defined/],
    ['a Console guard not defined', { input_guards: ['pi'], guards: {} }, ['input_guards', 0], 'value_error', /under 'guards'/],
    ['an inline guard with two names', { 'input-guards': [{ a: PI, b: PI }] }, ['input-guards', 0], 'value_error'],
    ['a guard item of another type', { 'input-guards': [3] }, ['input-guards', 0], 'value_error'],
    ['a guard listed twice', { 'input-guards': ['pi', 'pi'], pi: PI }, ['input-guards', 1], 'value_error', /listed twice/],
    ['inline twice differently', { 'input-guards': [{ pi: PI }], 'output-guards': [{ pi: { ...PI, 'early-exit': false } }] },
      ['output-guards', 0, 'pi'], 'value_error'],
    ['inline and as a section', { 'input-guards': [{ pi: PI }], pi: PI }, ['input-guards', 0, 'pi'], 'value_error'],
    ['a section missing its type', { 'input-guards': ['pi'], pi: { methods: ['prompt-injection-warden'] } }, ['pi', 'type'], 'missing'],
    ['an unknown guard type', { 'input-guards': ['pi'], pi: { type: 'safety', methods: [] } }, ['pi', 'type'], 'enum'],
    ['a section missing its methods', { 'input-guards': ['pi'], pi: { type: 'security' } }, ['pi', 'methods'], 'missing'],
    ['empty methods', { 'input-guards': ['pi'], pi: { type: 'security', methods: [] } }, ['pi', 'methods'], 'too_short'],
    ['methods not a list', { 'input-guards': ['pi'], pi: { type: 'security', methods: 'x' } }, ['pi', 'methods'], 'list_type'],
    ['an unknown method', { 'input-guards': ['pi'], pi: { type: 'security', methods: ['prompt-injection-magic'] } }, ['pi', 'methods', 0], 'value_error', /unknown method 'prompt-injection-magic'/],
    ['a method under the wrong type', { 'input-guards': ['pi'], pi: { type: 'security', methods: ['detect-secrets'] } }, ['pi', 'methods', 0], 'value_error', /belongs to privacy guards/],
    ['a method listed twice', { 'input-guards': ['pi'], pi: { type: 'security', methods: ['encoding-heuristics', 'encoding-heuristics'] } },
      ['pi', 'methods', 1], 'value_error'],
    ['an LLM method without a model', { 'input-guards': ['pi'], pi: { type: 'security', methods: ['security-llm'] } }, ['pi', 'methods', 0], 'value_error', /WARDEN_LLM_/],
    ['an unknown key in a guard', { 'input-guards': ['pi'], pi: { ...PI, retries: 3 } }, ['pi', 'retries'], 'extra_forbidden'],
    ['early-exit not a boolean', { 'input-guards': ['pi'], pi: { ...PI, 'early-exit': 'yes' } }, ['pi', 'early-exit'], 'bool_type'],
    ['both spellings of a key', { 'input-guards': ['pi'], pi: { ...PI, 'early-exit': true, early_exit: false } }, ['pi', 'early_exit'], 'value_error'],
    ['a bad on-error', { 'input-guards': ['pi'], pi: { ...PI, 'on-error': 'retry' } }, ['pi', 'on-error'], 'enum'],
    ['a bad top-level on-error', { 'on-error': 'fail-shut' }, ['on-error'], 'enum'],
    ['a bad method parameter', { 'input-guards': ['p'], p: { type: 'privacy', methods: ['privacy-presidio'], 'privacy-presidio': { score_threshold: 3 } } },
      ['p', 'privacy-presidio', 'score_threshold'], 'less_than_equal'],
    ['an unknown method parameter', { 'input-guards': ['p'], p: { type: 'privacy', methods: ['detect-secrets'], 'detect-secrets': { censr: true } } },
      ['p', 'detect-secrets', 'censr'], 'extra_forbidden'],
    ['a parameter table that is not an object', { 'input-guards': ['p'], p: { type: 'privacy', methods: ['detect-secrets'], 'detect-secrets': true } },
      ['p', 'detect-secrets'], 'dict_type'],
    ['a blocked message too long', { 'input-blocked-message': 'x'.repeat(2001) }, ['input-blocked-message'], 'string_too_long'],
    ['a blocked message not a string', { 'output-blocked-message': 5 }, ['output-blocked-message'], 'string_type'],
    ['an unknown key in [guardrail]', { guardrail: { 'input-gaurds': [] } }, ['guardrail', 'input-gaurds'], 'extra_forbidden'],
    ['an option in [guardrail] and at the top', { guardrail: { 'input-guards': [] }, 'input-guards': [] }, ['input-guards'], 'value_error'],
    ['a reserved Console guard name', { input_guards: [], guards: { 'input-guards': PI } }, ['guards', 'input-guards'], 'value_error'],
    ['an invalid section no list names', { 'input-guards': [], spare: { type: 'security', methods: ['nope'] } }, ['spare', 'methods', 0], 'value_error'],
    ['an inline guard in a TOML table', { guardrail: { 'input-guards': [{ pi: { type: 'security' } }] } },
      ['guardrail', 'input-guards', 0, 'pi', 'methods'], 'missing'],
    ['an agent_id of another type', { agent_id: 5 }, ['agent_id'], 'string_type'],
    ['a guard name too long', { 'input-guards': ['g'.repeat(101)] }, ['input-guards', 0], 'string_too_long'],
    ['too many guards', { 'input-guards': Array.from({ length: 33 }, (_, i) => `g${i}`) }, ['input-guards'], 'too_long'],
  ];
  for (const [name, raw, path, type, message] of cases) {
    it(`${name}: ${JSON.stringify(path)} ${type}`, () => {
      const error = errorOf(raw);
      expect(error.path).toEqual(path);
      expect(error.type).toBe(type);
      if (message) expect(error.message).toMatch(message);
    });
  }

  it('accepts an LLM method when a model is configured', () => {
    const raw = { 'input-guards': ['pi'], pi: { type: 'security', methods: ['security-llm'] } };
    expect(compileDomeConfig(raw, { llmAvailable: true }).methods).toEqual(['security-llm']);
  });

  it('ignores a parameter table of a method the guard does not list, as Dome does', () => {
    expect(() => compileDomeConfig({ 'input-guards': ['pi'], pi: { ...PI, 'encoding-heuristics': { anything: 1 } } }, OFFLINE)).not.toThrow();
  });
});

describe('the catalogue', () => {
  it('lists methods and aliases, every alias resolving to a method of the catalogue', () => {
    const methods = listMethods();
    const ids = new Set(methods.filter((m) => m.aliasOf === null).map((m) => m.id));
    for (const id of [
      'privacy-presidio', 'detect-secrets', 'moderation-flashtext', 'security-llm', 'moderation-prompt-engineering', 'generic-llm', 'policy-sections',
      'prompt-injection-warden', 'encoding-heuristics',
    ]) {
      expect(ids.has(id), id).toBe(true);
    }
    for (const alias of methods.filter((m) => m.aliasOf !== null)) expect(ids.has(alias.aliasOf ?? ''), alias.id).toBe(true);
    expect(methods.find((m) => m.id === 'moderation-mbert')).toMatchObject({ type: 'moderation', aliasOf: 'moderation-flashtext', needsLlm: false });
    expect(methods.find((m) => m.id === 'policy-sections')).toMatchObject({ type: 'policy', needsLlm: true, aliasOf: null });
  });

  it("drops a Dome alias's model settings but still rejects a typo", () => {
    const guard = (params: Record<string, unknown>) => ({
      'input-guards': ['pi'],
      pi: { type: 'security', methods: ['prompt-injection-mbert'], 'prompt-injection-mbert': params },
    });
    expect(compileDomeConfig(guard({ window_stride: 128, score_threshold: 0.7, truncation: true }), OFFLINE).methods).toEqual(['prompt-injection-warden']);
    expect(errorOf(guard({ window_strid: 128 })).path).toEqual(['pi', 'prompt-injection-mbert', 'window_strid']);
  });
});
