import { boundText } from '../../jobs/text.js';
import { Type } from 'typebox';
import { decodeNullableJsonColumn } from '../../db/json-columns.js';

/**
 * Bounds of a stored result (docs/api.md, "Bounds"), in bytes of the answered JSON: the prompt
 * and the agent's answer 16 KiB each, the reason 2 KiB, the error 990 bytes (its column holds
 * 1,000 characters). The verdict is made on the whole answer before it is cut.
 */
export const RESULT_TEXT_BYTES = { prompt: 16_384, response: 16_384, reason: 2_048, error: 990 } as const;

export interface ResultTexts {
  prompt: string;
  response: string | null;
  reason: string;
  error: string | null;
}

/** The texts as stored, and the `truncated` column: the original lengths of the prompt and answer when they were cut. */
export function boundResultTexts(texts: ResultTexts): ResultTexts & { truncated: string | null } {
  const prompt = boundText(texts.prompt, RESULT_TEXT_BYTES.prompt);
  const response = texts.response === null ? null : boundText(texts.response, RESULT_TEXT_BYTES.response);
  const cut: Record<string, number> = {};
  if (prompt.truncated) cut.prompt = prompt.length;
  if (response?.truncated === true) cut.response = response.length;
  return {
    prompt: prompt.text,
    response: response?.text ?? null,
    reason: boundText(texts.reason, RESULT_TEXT_BYTES.reason).text,
    error: texts.error === null ? null : boundText(texts.error, RESULT_TEXT_BYTES.error).text,
    truncated: Object.keys(cut).length === 0 ? null : JSON.stringify(cut),
  };
}

/** What a result stores of what was cut: the original lengths (UTF-16 units) of the texts cut. */
const TruncatedColumn = Type.Object({ prompt: Type.Optional(Type.Integer()), response: Type.Optional(Type.Integer()) });

/**
 * A result's additions saying what was cut: `prompt_truncated` / `response_truncated`, and
 * `prompt_length` / `response_length`, the original lengths (UTF-16 units) when cut, else the
 * stored ones.
 */
export function truncationFields(row: { prompt: string; response: string | null; truncated: string | null }) {
  const cut = decodeNullableJsonColumn(TruncatedColumn, row.truncated, 'evaluation_results.truncated') ?? {};
  return {
    prompt_truncated: cut.prompt !== undefined,
    prompt_length: cut.prompt ?? row.prompt.length,
    response_truncated: cut.response !== undefined,
    response_length: cut.response ?? row.response?.length ?? null,
  };
}
