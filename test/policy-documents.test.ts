import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { createApiKey, createWorld, type World } from './helpers/factories.js';
import { expect422, expectDetail, expectReferenceShape } from './helpers/reference.js';
import { makePdf, multipartBody, policyClient } from './policy-fixtures.js';

let t: TestApp;
let world: World;
const c = policyClient(() => t.app);
const MB = 1024 * 1024;

beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
});
afterAll(async () => t.close());

const upload = (policyId: string, token: string | undefined, fileName: string, content: Buffer, field = 'file') => {
  const { payload, headers } = multipartBody(field, fileName, content);
  return t.app.inject({ method: 'POST', url: `/v1/policies/${policyId}/upload`, headers: { ...headers, ...(token ? bearer(token) : {}) }, payload });
};

describe('POST /v1/policies/{policy_id}/upload', () => {
  it('stores a text file, makes it the source text, and serves it back as sent', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    const text = 'Acceptable use\r\n\r\nThe agent must not share customer emails. Ünïcödé is kept.\r\n';
    const res = await upload(policy.id, token, 'acceptable-use.txt', Buffer.from(text, 'utf8'));
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json();
    expectReferenceShape(updated, 'Policy');
    expect(updated).toMatchObject({
      id: policy.id,
      file_name: 'acceptable-use.txt',
      file_type: 'txt',
      file_size_bytes: Buffer.byteLength(text),
      file_path: `policies/${policy.id}/acceptable-use.txt`,
      converted_file_path: `policies/${policy.id}/converted.md`,
      source_text: text.replace(/\r\n/g, '\n'),
    });

    const file = await c.get(`/v1/policies/${policy.id}/file`, world.teamA.owner.token);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(file.headers['content-type']).toMatch(/^text\/plain/);
    expect(file.headers['content-disposition']).toContain('attachment; filename="acceptable-use.txt"');

    const converted = await c.get(`/v1/policies/${policy.id}/converted`, token);
    expect(converted.statusCode).toBe(200);
    expect(converted.headers['content-type']).toMatch(/^text\/markdown/);
    expect(converted.body).toBe(text.replace(/\r\n/g, '\n'));
  });

  it('extracts the text of a PDF into Markdown', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    const pdf = makePdf(['Data handling policy', 'Agents must never reveal passwords.', 'Escalate legal questions (always).']);
    const res = await upload(policy.id, token, 'Data Policy.PDF', pdf);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ file_type: 'pdf', file_name: 'Data Policy.PDF', file_size_bytes: pdf.length });
    const converted = await c.get(`/v1/policies/${policy.id}/converted`, token);
    expect(converted.statusCode).toBe(200);
    expect(converted.body.startsWith('# Data Policy\n\n')).toBe(true);
    expect(converted.body).toContain('Agents must never reveal passwords.');
    expect(converted.body).toContain('Escalate legal questions (always).');
    expect(res.json().source_text).toBe(converted.body);
    const file = await c.get(`/v1/policies/${policy.id}/file`, token);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(pdf)).toBe(true);
  });

  it('accepts Markdown as it is, and a new upload replaces the old one', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    await upload(policy.id, token, 'old.txt', Buffer.from('old text'));
    const md = '# Brand\n\n## Tone\n\nThe agent should be courteous.\n';
    const res = await upload(policy.id, token, 'brand.md', Buffer.from(md));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ file_type: 'md', file_name: 'brand.md', source_text: md });
    expect((await c.get(`/v1/policies/${policy.id}/converted`, token)).body).toBe(md);
    expect((await c.get(`/v1/policies/${policy.id}/file`, token)).body).toBe(md);
  });

  it('refuses other types with 415, damaged PDFs with 400, and files over 10 MB with 413', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    expectDetail(await upload(policy.id, token, 'policy.docx', Buffer.from('PK\u0003\u0004 not really')), 415);
    expectDetail(await upload(policy.id, token, 'fake.pdf', Buffer.from('just text, no PDF header')), 415);
    expectDetail(await upload(policy.id, token, 'binary.txt', Buffer.from([0xff, 0xfe, 0x00, 0x41, 0xc3])), 415);
    expectDetail(await upload(policy.id, token, 'broken.pdf', Buffer.from('%PDF-1.4\nthis is not a real pdf body')), 400);
    expectDetail(await upload(policy.id, token, 'empty.txt', Buffer.alloc(0)), 400);
    const tooLarge = await upload(policy.id, token, 'huge.txt', Buffer.alloc(10 * MB + 1, 'a'));
    expectDetail(tooLarge, 413);
    expect(tooLarge.json().detail).toContain('10 MB');
    const justRight = await upload(policy.id, token, 'big.txt', Buffer.alloc(10 * MB, 'a'));
    expect(justRight.statusCode, justRight.body).toBe(200);
    expect(justRight.json().file_size_bytes).toBe(10 * MB);
    // Nothing was stored by the refused uploads.
    expect((await c.get(`/v1/policies/${policy.id}/file`, token)).rawPayload.length).toBe(10 * MB);
  });

  it('needs multipart with a "file" field', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    expectDetail(await c.post(`/v1/policies/${policy.id}/upload`, token, { file: 'text' }), 415);
    expect422(await upload(policy.id, token, 'a.txt', Buffer.from('x'), 'document'), ['body', 'file'], 'missing');
    const empty = multipartBody('file', 'a.txt', Buffer.from('x'));
    const noParts = await t.app.inject({
      method: 'POST',
      url: `/v1/policies/${policy.id}/upload`,
      headers: { ...bearer(token), 'content-type': empty.headers['content-type'] },
      payload: `--${empty.headers['content-type'].split('boundary=')[1]}--\r\n`,
    });
    expect422(noParts, ['body', 'file'], 'missing');
  });

  it('refuses two file parts, a field before the file, and malformed multipart with a clear 4xx, storing nothing', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token, { source_text: 'kept' });
    const send = (body: string | Buffer, contentType: string) =>
      t.app.inject({ method: 'POST', url: `/v1/policies/${policy.id}/upload`, headers: { ...bearer(token), 'content-type': contentType }, payload: body });
    const boundary = 'XyZ123';
    const part = (name: string, fileName: string, content: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n`;
    const type = `multipart/form-data; boundary=${boundary}`;
    // Two files in "file": which one would be the document? A 400 that says so.
    const two = await send(`${part('file', 'a.txt', 'first')}${part('file', 'b.txt', 'second')}--${boundary}--\r\n`, type);
    expectDetail(two, 400);
    expect(two.json().detail).toContain('one file');
    // A second file in another field is refused the same way.
    expectDetail(await send(`${part('file', 'a.txt', 'first')}${part('other', 'b.txt', 'second')}--${boundary}--\r\n`, type), 400);
    // Malformed: no boundary, a body that is not multipart, a part cut off before its end.
    for (const res of [
      await send('hello', 'multipart/form-data'),
      await send('this is not multipart at all', type),
      await send(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunfinished`, type),
    ]) {
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(typeof res.json().detail).not.toBe('undefined');
    }
    const after = await c.ok(c.get(`/v1/policies/${policy.id}`, token));
    expect(after).toMatchObject({ source_text: 'kept', file_name: null });
  });

  it('answers 401, 403 and 404', async () => {
    const policy = await c.createPolicy(world.teamA.member.token);
    expectDetail(await upload(policy.id, undefined, 'a.txt', Buffer.from('x')), 401);
    const key = await createApiKey(t.app, world.teamA.member.token, ['policy:read']);
    expectDetail(await upload(policy.id, key, 'a.txt', Buffer.from('x')), 403);
    expectDetail(await upload(policy.id, world.teamB.member.token, 'a.txt', Buffer.from('x')), 404);
  });
});

describe('GET /file, GET /converted, DELETE /file', () => {
  it('answers 404 for a missing file, 400 for a missing converted file', async () => {
    const policy = await c.createPolicy(world.teamA.member.token);
    expectDetail(await c.get(`/v1/policies/${policy.id}/file`, world.teamA.member.token), 404);
    expectDetail(await c.get(`/v1/policies/${policy.id}/converted`, world.teamA.member.token), 400);
    expectDetail(await c.del(`/v1/policies/${policy.id}/file`, world.teamA.member.token), 404);
  });

  it('deletes the file and its metadata but keeps the source text', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    await upload(policy.id, token, 'rules.md', Buffer.from('# Rules\n\nBe kind.\n'));
    expectDetail(await c.del(`/v1/policies/${policy.id}/file`, world.teamB.member.token), 404);
    const key = await createApiKey(t.app, token, ['policy:read']);
    expectDetail(await c.del(`/v1/policies/${policy.id}/file`, key), 403);
    const res = await c.del(`/v1/policies/${policy.id}/file`, token);
    expect(res.statusCode, res.body).toBe(200);
    expectReferenceShape(res.json(), 'Policy');
    expect(res.json()).toMatchObject({
      file_name: null,
      file_path: null,
      file_type: null,
      file_size_bytes: null,
      converted_file_path: null,
      source_text: '# Rules\n\nBe kind.\n',
    });
    expectDetail(await c.get(`/v1/policies/${policy.id}/file`, token), 404);
    expectDetail(await c.get(`/v1/policies/${policy.id}/converted`, token), 400);
  });

  it('keeps documents private to the team', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    await upload(policy.id, token, 'secret.txt', Buffer.from('internal'));
    expectDetail(await c.get(`/v1/policies/${policy.id}/file`, world.teamB.member.token), 404);
    expectDetail(await c.get(`/v1/policies/${policy.id}/converted`, world.teamB.member.token), 404);
    expectDetail(await c.get(`/v1/policies/${policy.id}/file`), 401);
    const key = await createApiKey(t.app, token, ['agent:read']);
    expectDetail(await c.get(`/v1/policies/${policy.id}/file`, key), 403);
    expectDetail(await c.get(`/v1/policies/${policy.id}/converted`, key), 403);
  });
});
