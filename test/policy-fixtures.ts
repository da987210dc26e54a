import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { bearer } from './helpers/app.js';

/** Shared by the policy, rule, document and extraction tests. */
export function policyClient(app: () => FastifyInstance) {
  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string | undefined, payload?: unknown) =>
    app().inject({ method, url, headers: token ? bearer(token) : {}, ...(payload === undefined ? {} : { payload: payload as object }) });
  const ok = async (res: Promise<LightMyRequestResponse>, status = 200) => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(status);
    return r.statusCode === 204 ? undefined : r.json();
  };
  return {
    send,
    get: (url: string, token?: string) => send('GET', url, token),
    post: (url: string, token: string | undefined, payload?: unknown) => send('POST', url, token, payload),
    patch: (url: string, token: string | undefined, payload: unknown) => send('PATCH', url, token, payload),
    del: (url: string, token?: string) => send('DELETE', url, token),
    createPolicy: (token: string, body: Record<string, unknown> = {}) =>
      ok(send('POST', '/v1/policies/', token, { name: 'Customer data', category: 'privacy', ...body }), 201),
    createRule: (token: string, policyId: string, body: Record<string, unknown> = {}) =>
      ok(
        send('POST', `/v1/policies/${policyId}/rules`, token, {
          rule_type: 'prohibition',
          action: 'disclose_personal_data',
          consequence: { action: 'block', severity: 'high', message: 'No.' },
          natural_language: 'The agent must not disclose personal data.',
          ...body,
        }),
        201,
      ),
    ok,
  };
}

/** A one-page PDF whose text is `lines`, built by hand (Helvetica, no compression). */
export function makePdf(lines: string[]): Buffer {
  const escape = (s: string) => s.replace(/[()\\]/g, (m) => `\\${m}`);
  const content = `BT /F1 12 Tf 72 720 Td 14 TL ${lines.map((l) => `(${escape(l)}) Tj T*`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A multipart/form-data body with one file part. */
export function multipartBody(fieldName: string, fileName: string, content: Buffer, contentType = 'application/octet-stream') {
  const boundary = `----warden${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${fieldName}"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, content, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
