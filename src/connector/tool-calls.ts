import type { ToolCall } from './types.js';

/** Calls read from one answer at most (an answer with more is cut to these). */
export const MAX_TOOL_CALLS = 32;
const MAX_NAME = 200;

/**
 * One tool call from what a protocol carried: a name and its arguments. Arguments sent as a
 * JSON string (chat completions) are parsed; a string that is not JSON is kept as it is.
 */
export function toolCall(name: unknown, args: unknown): ToolCall | null {
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME) return null;
  if (typeof args !== 'string') return { name, arguments: args ?? {} };
  if (args.trim() === '') return { name, arguments: {} };
  try {
    return { name, arguments: JSON.parse(args) as unknown };
  } catch {
    return { name, arguments: args };
  }
}
