/**
 * Where each probe of the standard harnesses and each red-team category and probe sits in the
 * OWASP Top 10 for LLM Applications (2025) and in MITRE ATLAS (docs/evaluations.md, "Reports").
 * One table, used by the evaluation and the campaign reports. The mapping is Warden's reading of
 * both frameworks: an item is mapped to what its attack tries, not to every risk it touches.
 */

export const OWASP_LLM_2025 = {
  LLM01: 'Prompt Injection',
  LLM02: 'Sensitive Information Disclosure',
  LLM03: 'Supply Chain',
  LLM04: 'Data and Model Poisoning',
  LLM05: 'Improper Output Handling',
  LLM06: 'Excessive Agency',
  LLM07: 'System Prompt Leakage',
  LLM08: 'Vector and Embedding Weaknesses',
  LLM09: 'Misinformation',
  LLM10: 'Unbounded Consumption',
} as const;
export type OwaspId = keyof typeof OWASP_LLM_2025;

/** The MITRE ATLAS techniques the mapping uses. */
export const ATLAS_TECHNIQUES = {
  'AML.T0051.000': 'LLM Prompt Injection: Direct',
  'AML.T0051.001': 'LLM Prompt Injection: Indirect',
  'AML.T0054': 'LLM Jailbreak',
  'AML.T0056': 'Extract LLM System Prompt',
  'AML.T0057': 'LLM Data Leakage',
  'AML.T0055': 'Unsecured Credentials',
  'AML.T0053': 'AI Agent Tool Invocation',
  'AML.T0068': 'LLM Prompt Obfuscation',
  'AML.T0062': 'Discover LLM Hallucinations',
  'AML.T0048.000': 'External Harms: Financial Harm',
  'AML.T0048.001': 'External Harms: Reputational Harm',
  'AML.T0048.002': 'External Harms: Societal Harm',
  'AML.T0048.003': 'External Harms: User Harm',
  'AML.T0043': 'Craft Adversarial Data',
} as const;
export type AtlasId = keyof typeof ATLAS_TECHNIQUES;

export interface FrameworkMapping {
  owasp: OwaspId[];
  atlas: AtlasId[];
}

const m = (owasp: OwaspId[], atlas: AtlasId[]): FrameworkMapping => ({ owasp, atlas });

const DIRECT = m(['LLM01'], ['AML.T0051.000']);
const INDIRECT = m(['LLM01'], ['AML.T0051.001']);
const OBFUSCATED = m(['LLM01'], ['AML.T0051.000', 'AML.T0068']);
const JAILBREAK = m(['LLM01'], ['AML.T0054']);
const PROMPT_LEAK = m(['LLM07'], ['AML.T0056']);
const DATA_LEAK = m(['LLM02'], ['AML.T0057']);
const HARMFUL = m(['LLM01'], ['AML.T0054', 'AML.T0048.003']);
const SOCIETAL = m(['LLM09'], ['AML.T0048.002']);
const TOXIC = m(['LLM01'], ['AML.T0048.001']);
const HALLUCINATION = m(['LLM09'], ['AML.T0062']);
const INACCURATE = m(['LLM09'], ['AML.T0048.003']);

/** Standard harness → scenario → mapping (a scenario's probes share it unless PROBES says otherwise). */
const SCENARIOS: Record<string, Record<string, FrameworkMapping>> = {
  security: {
    'prompt-injection': DIRECT,
    jailbreak: JAILBREAK,
    encoding: OBFUSCATED,
    'system-prompt-extraction': PROMPT_LEAK,
    'payload-splitting': OBFUSCATED,
  },
  safety: { 'dangerous-activities': HARMFUL, 'illegal-advice': HARMFUL, misinformation: SOCIETAL },
  reliability: { 'factual-accuracy': INACCURATE, consistency: m(['LLM09'], ['AML.T0043']), hallucination: HALLUCINATION },
  privacy: {
    'pii-solicitation': DATA_LEAK,
    'pii-leakage': DATA_LEAK,
    'secret-extraction': m(['LLM02', 'LLM07'], ['AML.T0057', 'AML.T0055']),
    memorisation: DATA_LEAK,
  },
  toxicity: { insults: TOXIC, harassment: TOXIC, hate: m(['LLM01'], ['AML.T0048.002']), profanity: TOXIC },
  ethics: { 'bias-stereotyping': SOCIETAL, 'fairness-decisions': SOCIETAL, 'deception-manipulation': m(['LLM09'], ['AML.T0048.003']) },
};

/** Probe-level exceptions: `harness.scenario.probe`. */
const PROBES: Record<string, FrameworkMapping> = {
  'security.prompt-injection.indirect-document': INDIRECT,
  'security.prompt-injection.indirect-email': INDIRECT,
  'security.prompt-injection.indirect-web-page': INDIRECT,
};

/** Red-team category → mapping. */
const CATEGORIES: Record<string, FrameworkMapping> = {
  injection: DIRECT,
  jailbreak: JAILBREAK,
  harmful: HARMFUL,
  pii: DATA_LEAK,
  toxicity: TOXIC,
  hallucination: HALLUCINATION,
  overreliance: INACCURATE,
};

/** Red-team probe-level exceptions (catalogue ids). */
const ATTACK_PROBES: Record<string, FrameworkMapping> = {
  'injection.indirect-document': INDIRECT,
  'injection.prompt-extraction': PROMPT_LEAK,
  'injection.tool-abuse': m(['LLM01', 'LLM06'], ['AML.T0051.000', 'AML.T0053']),
  'injection.mcp-exfiltration': m(['LLM06', 'LLM02'], ['AML.T0051.001', 'AML.T0053', 'AML.T0057']),
  'injection.delegate-relay': m(['LLM06'], ['AML.T0051.001', 'AML.T0053']),
  'pii.tool-lookup': m(['LLM02', 'LLM06'], ['AML.T0057', 'AML.T0053']),
  'harmful.domain-fraud': m(['LLM01'], ['AML.T0054', 'AML.T0048.000']),
  'harmful.misuse-of-function': m(['LLM06'], ['AML.T0053', 'AML.T0048.003']),
};

/** Red-team strategies that hide the request (encodings, smuggling): ATLAS's prompt obfuscation as well. */
const OBFUSCATING_STRATEGIES = new Set(['base64', 'rot13', 'hex', 'leetspeak', 'homoglyph', 'zero-width', 'tag-smuggling', 'reversed', 'payload-splitting']);

const UNMAPPED = m([], []);

/** The mapping of a probe of an evaluation harness (custom harnesses: by the standard harness their generator names, if any). */
export function evaluationMapping(harness: string, scenario: string, probe: string): FrameworkMapping {
  return PROBES[`${harness}.${scenario}.${probe}`] ?? SCENARIOS[harness]?.[scenario] ?? UNMAPPED;
}

/** The mapping of a red-team attack: its probe's, else its category's, plus prompt obfuscation for an obfuscating strategy. */
export function attackMapping(category: string, probe: string | null, strategy?: string | null): FrameworkMapping {
  const base = (probe === null ? undefined : ATTACK_PROBES[probe]) ?? CATEGORIES[category] ?? CATEGORIES[probe?.split('.')[0] ?? ''] ?? UNMAPPED;
  if (strategy === undefined || strategy === null || !OBFUSCATING_STRATEGIES.has(strategy) || base.atlas.includes('AML.T0068')) return base;
  return { owasp: base.owasp, atlas: [...base.atlas, 'AML.T0068'] };
}

/** `LLM01 Prompt Injection` / `AML.T0054 LLM Jailbreak`. */
export const owaspLabel = (id: OwaspId) => `${id} ${OWASP_LLM_2025[id]}`;
export const atlasLabel = (id: AtlasId) => `${id} ${ATLAS_TECHNIQUES[id]}`;

/** One row of a coverage table: a framework item, how many tested items map to it, how many of those failed. */
export interface CoverageRow {
  id: string;
  name: string;
  /** Probes (or attack categories) tested that map to it. */
  tested: number;
  /** Of those, the ones with at least one failure (a successful attack). */
  failing: number;
}

/**
 * The OWASP and ATLAS coverage of a set of tested items: every OWASP item (untested ones with 0,
 * so a reader sees what was not covered) and every ATLAS technique some item maps to.
 */
export function coverage(items: ReadonlyArray<{ mapping: FrameworkMapping; failing: boolean }>): { owasp: CoverageRow[]; atlas: CoverageRow[] } {
  const count = (id: string, pick: (m: FrameworkMapping) => readonly string[]) => {
    const mapped = items.filter((item) => pick(item.mapping).includes(id));
    return { tested: mapped.length, failing: mapped.filter((item) => item.failing).length };
  };
  const owasp = (Object.keys(OWASP_LLM_2025) as OwaspId[]).map((id) => ({ id, name: OWASP_LLM_2025[id], ...count(id, (x) => x.owasp) }));
  const atlas = (Object.keys(ATLAS_TECHNIQUES) as AtlasId[])
    .map((id) => ({ id, name: ATLAS_TECHNIQUES[id], ...count(id, (x) => x.atlas) }))
    .filter((row) => row.tested > 0);
  return { owasp, atlas };
}

/** What to do about a risk of an OWASP item (the first page's "what to do next"). */
export const OWASP_ADVICE: Record<OwaspId, string> = {
  LLM01:
    'Put an input guard in front of the agent (a Dome configuration with prompt-injection and jailbreak detection), keep instructions and untrusted content apart in the prompt, and re-run the evaluation.',
  LLM02:
    'Keep personal data and secrets out of the agent\u2019s context where it does not need them, and add an output guard that redacts personal data and secrets.',
  LLM03: 'Review the models, plugins and packages the agent depends on.',
  LLM04: 'Review the data the agent was tuned or grounded on.',
  LLM05: 'Treat the agent\u2019s answers as untrusted input wherever another system uses them.',
  LLM06: 'Narrow the tools the agent may call and what they may do; ask a person before actions with effects.',
  LLM07: 'Put nothing secret in the system prompt, tell the agent not to repeat it, and add an output guard that blocks answers reproducing it.',
  LLM08: 'Review what the retrieval store holds and who can write to it.',
  LLM09:
    'Ground the agent on sources it can cite, let it say it does not know, and check its answers where a wrong one costs (an output guard can flag unsupported claims).',
  LLM10: 'Bound the length and rate of requests the agent serves.',
};
