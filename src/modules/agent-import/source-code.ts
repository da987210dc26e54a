import type { ValidationIssue } from '../../http/errors.js';
import type { AgentCreateBody } from '../agents/agents.schemas.js';
import type { SourceCodeUploadIn, UnifiedImportRequestIn } from './agent-import.schemas.js';

/**
 * A white box agent from uploaded source files. Pure. Name and model are taken from the
 * upload, else from the first `name = "…"` / `model = "…"` assignment in the entry point,
 * else from the entry point's file name and "unknown".
 */
export interface SourcePlan {
  issues: ValidationIssue[];
  warnings: string[];
  fields: AgentCreateBody | null;
  capabilities: Record<string, unknown> | null;
  format: string;
}

const NAME_PATTERN = /\b(?:agent_name|name)\s*[=:]\s*["']([^"'\n]{1,255})["']/;
const MODEL_PATTERN = /\b(?:model_name|model_id|model)\s*[=:]\s*["']([^"'\n]{1,255})["']/;

/** Several files are kept in the one source_code field, each under a header line naming it. */
export const FILE_HEADER = (name: string) => `# ==== file: ${name} ====`;

export function planSourceCode(input: UnifiedImportRequestIn, source: SourceCodeUploadIn, _at: number): SourcePlan {
  const warnings: string[] = [];
  const files = source.files;
  const names = Object.keys(files);
  const entry = input.entry_point ?? source.entry_point ?? 'main.py';
  const framework = input.framework ?? source.framework ?? 'unknown';
  const format = `source_code/${framework}`;
  if (names.length === 0) {
    const issue = {
      loc: ['body', 'source_code', 'files'],
      msg: 'No files were uploaded: send at least the entry point, e.g. {"main.py": "..."}',
      type: 'value_error',
    };
    return { issues: [issue], warnings, fields: null, capabilities: null, format };
  }
  const code = files[entry];
  if (code === undefined) {
    const loc = input.entry_point != null ? ['body', 'entry_point'] : ['body', 'source_code', 'entry_point'];
    const listed = names.slice(0, 10).map((n) => `"${n}"`).join(', ');
    const issue = {
      loc,
      msg: `The entry point "${entry}" is not among the uploaded files (${listed}${names.length > 10 ? ', …' : ''}); name one of them`,
      type: 'value_error',
    };
    return { issues: [issue], warnings, fields: null, capabilities: null, format };
  }

  const base = entry.split('/').pop()?.replace(/\.[^.]+$/, '') || entry;
  const agentName = input.override_name ?? source.agent_name ?? NAME_PATTERN.exec(code)?.[1] ?? base;
  let modelName = source.model_name ?? MODEL_PATTERN.exec(code)?.[1];
  if (modelName === undefined) {
    warnings.push(`No model name was given or found in ${entry}; it is recorded as "unknown" until you set model_name`);
    modelName = 'unknown';
  }
  const ordered = [entry, ...names.filter((n) => n !== entry)];
  const sourceText = names.length === 1 ? code : ordered.map((n) => `${FILE_HEADER(n)}\n${files[n]}`).join('\n');
  const tools = source.tools ?? [];

  return {
    issues: [],
    warnings,
    format,
    capabilities:
      tools.length > 0 ? { streaming: false, push_notifications: false, code_execution: false, memory: false, delegation: false, tools } : null,
    fields: {
      agent_name: agentName,
      model_name: modelName,
      access_level: 'white_box',
      protocol: 'chat_completions',
      agent_system_prompt: source.system_prompt ?? null,
      purpose: source.description ?? null,
      agent_metadata: {
        role: null,
        job_description: source.description ?? null,
        version: null,
        author: null,
        tags: framework === 'unknown' ? null : [framework],
      },
      white_box_config: { source_code: sourceText, entry_point: entry, repo_url: null, github_username: null, repo_branch: null },
    },
  };
}
