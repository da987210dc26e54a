/**
 * `policy-sections`: the text checked by the configured model against the team's APPROVED policy
 * rules (`DetectorContext.policyRules`, supplied by the service), split into sections of
 * `rules_per_section` rules, one model call per section, `max_parallel_sections` at a time; the
 * first violation stops the rest (Dome's fast fail). Dome's S3, RAG and model settings are
 * accepted and unused: in Warden the policy is the team's rules, and its sections are built here.
 */
import { ignoring, nullable, numberParam, paramParser, type ParamSpec } from '../params.js';
import { clean, type DetectionResult, type DetectorDefinition, GuardConfigError, type PolicyRuleText } from '../types.js';
import { asData, askModel, capInput, errorResult, LLM_PARAMS, parseVerdict, timeoutMs } from './llm-judge.js';

/** Dome's `policy_sections` entries: extra rules given in the configuration itself. */
interface InlineSection {
  section_id: string;
  content: string;
}

const inlineSections: ParamSpec<InlineSection[]> = {
  fallback: [],
  parse(value, path) {
    if (!Array.isArray(value)) throw new GuardConfigError(path, 'Input should be a valid list', 'list_type');
    if (value.length > 200) throw new GuardConfigError(path, 'List should have at most 200 items', 'too_long');
    return value.map((entry, index) => {
      const at = [...path, index];
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
        throw new GuardConfigError(at, 'Input should be a valid dictionary', 'dict_type');
      }
      const { section_id: id, content } = entry as Record<string, unknown>;
      if (typeof content !== 'string' || content.trim() === '') throw new GuardConfigError([...at, 'content'], 'Field required', 'missing');
      if (content.length > 20_000) throw new GuardConfigError([...at, 'content'], 'String should have at most 20000 characters', 'string_too_long');
      return { section_id: typeof id === 'string' && id.trim() !== '' ? id.slice(0, 200) : `section-${index + 1}`, content };
    });
  },
};

const parseParams = paramParser({
  ...LLM_PARAMS,
  ...ignoring([
    'policy_s3_bucket',
    'policy_s3_key',
    'applies_to',
    'aws_access_key_id',
    'aws_secret_access_key',
    'aws_session_token',
    'region_name',
    'cache_dir',
    'use_rag',
    'faiss_s3_key',
    'section_ids_s3_key',
    'top_k',
    'similarity_threshold',
    'embedding_model',
    'embedding_engine',
    'policy_file',
    'output_format',
  ]),
  policy_sections: inlineSections,
  max_parallel_sections: nullable(numberParam(4, { min: 1, max: 32, integer: true })),
  /** Warden: how many rules one model call checks. */
  rules_per_section: numberParam(20, { min: 1, max: 200, integer: true }),
});
export type PolicySectionsParams = ReturnType<typeof parseParams>;

const DEFAULT_TIMEOUT_SECONDS = 60;

function sectionPrompt(rules: readonly PolicyRuleText[]): string {
  const listed = rules.map((r) => `- [${r.id}]${r.kind ? ` (${r.kind})` : ''} ${r.text.replace(/\s+/g, ' ').slice(0, 2000)}`).join('\n');
  return (
    "You check a text against an organisation's policy rules. A prohibition is violated when the text does, asks for or helps with " +
    'what it forbids. An obligation is violated only when it applies to this text and the text clearly fails it. A permission is never ' +
    'violated. Judge only against these rules:\n' +
    `${listed}\n\n` +
    'Answer with one JSON object and nothing else: {"verdict": "violation" or "compliant", "violated_rules": [the ids in brackets of the ' +
    'rules violated], "reason": "one sentence"}.'
  );
}

interface SectionOutcome {
  flagged: boolean;
  rules: string[];
  reason?: string | undefined;
  error?: string;
}

export const policySections: DetectorDefinition<PolicySectionsParams> = {
  id: 'policy-sections',
  type: 'policy',
  description: "A language model checks the text against the team's approved policy rules (and any `policy_sections` given inline).",
  needsLlm: true,
  parseParams,
  async detect(text, params, context): Promise<DetectionResult> {
    const rules: PolicyRuleText[] = [
      ...(context.policyRules ?? []),
      ...params.policy_sections.map((s) => ({ id: s.section_id, policyId: 'inline', text: s.content })),
    ];
    if (rules.length === 0) return clean({ rules_checked: 0 });
    if (!context.llm) return errorResult('no language model is configured (WARDEN_LLM_BASE_URL and WARDEN_LLM_MODEL)');
    const sections: PolicyRuleText[][] = [];
    for (let i = 0; i < rules.length; i += params.rules_per_section) sections.push(rules.slice(i, i + params.rules_per_section));

    const stop = new AbortController();
    const signal = context.signal ? AbortSignal.any([context.signal, stop.signal]) : stop.signal;
    const input = asData(capInput(text, params));
    const timeout = timeoutMs(params, DEFAULT_TIMEOUT_SECONDS);
    const outcomes: SectionOutcome[] = [];
    let next = 0;
    const worker = async () => {
      while (next < sections.length && !stop.signal.aborted) {
        const section = sections[next++] ?? [];
        const call = await askModel({ ...context, signal }, [{ role: 'system', content: sectionPrompt(section) }, { role: 'user', content: input }], timeout);
        if (stop.signal.aborted) return;
        if ('error' in call) {
          outcomes.push({ flagged: false, rules: [], error: String(call.error.details.error) });
          continue;
        }
        const verdict = parseVerdict(call.answer);
        if (!verdict) {
          outcomes.push({ flagged: false, rules: [], error: 'the model answered without a readable verdict' });
          continue;
        }
        const known = new Set(section.map((r) => r.id));
        const outcome: SectionOutcome = { flagged: verdict.flagged, rules: (verdict.rules ?? []).filter((id) => known.has(id)), reason: verdict.reason };
        outcomes.push(outcome);
        if (outcome.flagged) stop.abort();
      }
    };
    await Promise.all(Array.from({ length: Math.min(params.max_parallel_sections ?? 4, sections.length) }, worker));

    const flagged = outcomes.filter((o) => o.flagged);
    const errors = outcomes.filter((o) => o.error !== undefined);
    const base = { rules_checked: rules.length, sections: sections.length, sections_answered: outcomes.length };
    if (flagged.length > 0) {
      const byId = new Map(rules.map((r) => [r.id, r]));
      const violated = [...new Set(flagged.flatMap((o) => o.rules))].map((id) => ({ id, policy_id: byId.get(id)?.policyId }));
      const reason = flagged.find((o) => o.reason)?.reason;
      return { hit: true, score: 1, label: 'flagged', details: { ...base, violated_rules: violated, ...(reason ? { reason } : {}) } };
    }
    if (errors.length > 0) return errorResult(errors[0]?.error ?? 'the model call failed', { ...base, sections_failed: errors.length });
    return clean({ ...base, violated_rules: [] });
  },
};
