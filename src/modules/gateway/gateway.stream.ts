import { StreamFailure, type AgentCallError } from '../../connector/types.js';

/**
 * Output guards on a streamed answer (docs/gateway.md, "Streaming"), for both protocols:
 * - `hold` (default): the answer is read whole, checked, then sent (or its replacement);
 * - `incremental`: each event is sent as it comes, the text so far checked every `checkChars`
 *   characters and at the end; a failed check ends the stream with an error frame.
 */

export interface OutputCheck {
  /** The guard that blocks the text (null: it passes). */
  blockedBy: string | null;
  /** The text to send when a guard redacted it (otherwise the text itself). */
  text: string;
  changed: boolean;
}

export interface StreamGuard {
  mode: 'hold' | 'incremental';
  checkChars: number;
  /** The answer text an event adds (`''` for none). */
  textOf(data: string): string;
  /** null: no output guard applies (everything passes at once). */
  check: ((text: string) => Promise<OutputCheck>) | null;
  /** An upstream event, as sent to the caller. */
  frame(data: string): string;
  /** The whole answer replaced (blocked, or redacted) in `hold` mode. */
  replacement(text: string, blocked: boolean): string[];
  /** The frame that ends a stream whose check failed (or whose agent failed) in `incremental` mode. */
  errorFrame(message: string, code: string): string;
  /** Whether the event is the stream's own end marker (`[DONE]`), sent only after the last check. */
  isEnd(data: string): boolean;
  blockedMessage: string;
  onBlocked(guard: string): void;
  onUpstreamFailure(failure: AgentCallError): string;
}

export async function* guardedFrames(events: AsyncIterable<string>, guard: StreamGuard): AsyncIterable<string> {
  let text = '';
  let checkedAt = 0;
  const held: string[] = [];
  const endMarkers: string[] = [];
  const holding = guard.check !== null && guard.mode === 'hold';
  try {
    for await (const data of events) {
      if (guard.isEnd(data)) {
        endMarkers.push(data);
        continue;
      }
      text += guard.textOf(data);
      if (holding) {
        held.push(data);
        continue;
      }
      yield guard.frame(data);
      if (guard.check !== null && text.length - checkedAt >= guard.checkChars) {
        checkedAt = text.length;
        const result = await guard.check(text);
        if (result.blockedBy !== null || result.changed) {
          guard.onBlocked(result.blockedBy ?? 'redaction');
          yield guard.errorFrame(guard.blockedMessage, 'output_blocked');
          return;
        }
      }
    }
  } catch (error) {
    if (error instanceof StreamFailure) {
      yield guard.errorFrame(guard.onUpstreamFailure(error.failure), 'upstream_error');
      return;
    }
    throw error;
  }
  if (guard.check !== null && (holding || text.length > checkedAt)) {
    const result = await guard.check(text);
    if (holding && (result.blockedBy !== null || result.changed)) {
      if (result.blockedBy !== null) guard.onBlocked(result.blockedBy);
      yield* guard.replacement(result.blockedBy !== null ? guard.blockedMessage : result.text, result.blockedBy !== null);
      for (const end of endMarkers) yield guard.frame(end);
      return;
    }
    if (!holding && (result.blockedBy !== null || result.changed)) {
      guard.onBlocked(result.blockedBy ?? 'redaction');
      yield guard.errorFrame(guard.blockedMessage, 'output_blocked');
      return;
    }
  }
  for (const data of held) yield guard.frame(data);
  for (const end of endMarkers) yield guard.frame(end);
}
