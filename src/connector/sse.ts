/**
 * Server-sent events as an agent streams them (OpenAI's `stream: true`, A2A `message/stream`):
 * the `data` of each event, its lines joined with "\n" (the event-stream format of the HTML
 * standard). A body that is not an event stream is given whole, as one item, by the caller.
 */

/** The `data` of each event of a byte stream; comments, `event:`, `id:` and `retry:` lines are skipped. */
export async function* sseData(chunks: AsyncIterable<Buffer>): AsyncIterable<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const flushLine = function* (line: string): Generator<string> {
    if (line === '') {
      if (data.length > 0) yield data.join('\n');
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    data.push(value);
  };
  for await (const chunk of chunks) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
      yield* flushLine(line);
    }
  }
  buffer += decoder.decode();
  if (buffer !== '') yield* flushLine(buffer);
  yield* flushLine('');
}
