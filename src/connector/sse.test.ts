import { describe, expect, it } from 'vitest';
import { sseData } from './sse.js';

async function dataOf(...chunks: string[]) {
  async function* source() {
    for (const chunk of chunks) yield Buffer.from(chunk);
  }
  const out: string[] = [];
  for await (const data of sseData(source())) out.push(data);
  return out;
}

describe('sseData', () => {
  it('gives the data of each event, whatever the chunks cut', async () => {
    expect(await dataOf('data: {"a":1}\n\ndata: {"b"', ':2}\n\n', 'data: [DONE]\n\n')).toEqual(['{"a":1}', '{"b":2}', '[DONE]']);
  });

  it('joins multi-line data, skips comments and other fields, reads CRLF and a last event without a blank line', async () => {
    expect(await dataOf(': keep-alive\r\nevent: message\r\nid: 7\r\ndata: one\r\ndata: two\r\n\r\ndata:three')).toEqual(['one\ntwo', 'three']);
  });

  it('keeps a character split across chunks whole', async () => {
    const bytes = Buffer.from('data: é\n\n');
    async function* source() {
      yield bytes.subarray(0, 7);
      yield bytes.subarray(7);
    }
    const out: string[] = [];
    for await (const data of sseData(source())) out.push(data);
    expect(out).toEqual(['é']);
  });
});
