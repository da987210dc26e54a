import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError, invalid } from '../../http/errors.js';
import { responses } from '../../http/schemas.js';
import { Policy, PolicyParams } from '../policies/policies.schemas.js';
import { DocumentUploadBody } from './documents.schemas.js';
import type { DocumentService, DownloadedFile, UploadedFile } from './documents.service.js';
import { MAX_DOCUMENT_BYTES } from './documents.service.js';

/** The reference tags a policy's document operations `policies`. */
const tags = ['Agent Environment', 'policies'];
/** A download: the file's bytes with their real media type (and a Content-Disposition header). */
const fileDownload = (description: string, mediaTypes: readonly string[]) =>
  Type.Unsafe<Buffer>({
    description,
    content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
  });
const UploadedFileContent = fileDownload('The uploaded document, as it was sent', ['application/pdf', 'text/plain', 'text/markdown']);
const ConvertedFileContent = fileDownload('The document converted to Markdown', ['text/markdown']);

/** One more than the one file accepted, so that a second file is seen (and refused) rather than dropped. */
const MAX_UPLOAD_FILES = 2;
const ONE_FILE = 'Send exactly one file, in the field "file"';

/**
 * The single `file` part of a multipart upload, read into memory (at most 10 MB). Every part
 * is read, so a second file (in any field) is refused rather than silently dropped; text fields
 * are ignored. A body that is not well-formed multipart is a 400.
 */
async function readUpload(request: FastifyRequest): Promise<UploadedFile> {
  if (!request.isMultipart()) {
    throw new AppError('unsupported_media_type', 'Send the document as multipart/form-data with a field named "file"');
  }
  let upload: UploadedFile | undefined;
  let files = 0;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_DOCUMENT_BYTES, files: MAX_UPLOAD_FILES } })) {
      if (part.type !== 'file') continue;
      files++;
      if (files > 1) throw new AppError('bad_request', `${ONE_FILE}: this request has more than one file`);
      if (part.fieldname === 'file') upload = { fileName: part.filename, content: await part.toBuffer() };
      else await part.toBuffer(); // read (and drop) it, to see whether a "file" part follows
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('payload_too_large', 'The file is larger than 10 MB, the most a policy document may be');
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw new AppError('bad_request', ONE_FILE);
    // Anything else the parser raises (no boundary, a part cut off, garbage) is the body's fault.
    request.log.info({ err: error }, 'malformed multipart upload');
    throw new AppError('bad_request', `The body is not well-formed multipart/form-data. ${ONE_FILE}`);
  }
  if (upload === undefined) throw invalid(['body', 'file'], 'Field required', 'missing');
  return upload;
}

function sendFile(reply: FastifyReply, file: DownloadedFile) {
  const ascii = file.fileName.replace(/[^\x20-\x7e]/g, '_');
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
    .header('x-content-type-options', 'nosniff')
    .send(file.content);
}

/** A policy's document: upload (converted to Markdown, which becomes the policy's source text), download, delete. */
export const documentRoutes: FastifyPluginAsyncTypebox<{ documents: DocumentService }> = async (app, { documents }) => {
  // Multipart is parsed only by the upload route, with the document limit: registered in a
  // context of its own, its hooks (an async onRequest and onResponse) do not run for every
  // other route of this feature, the rule list among them (bench/README.md).
  const uploadRoute: FastifyPluginAsyncTypebox = async (upload) => {
    await upload.register(multipart, { limits: { fileSize: MAX_DOCUMENT_BYTES, files: MAX_UPLOAD_FILES, fields: 10, parts: 20 } });
    upload.post(
      '/v1/policies/:policy_id/upload',
      {
        schema: {
          tags,
          summary: 'Upload the policy document (PDF, TXT or MD, at most 10 MB; multipart field "file")',
          description: 'Replaces any earlier document. Its text, converted to Markdown, becomes the policy\'s source_text.',
          params: PolicyParams,
          body: { content: { 'multipart/form-data': { schema: DocumentUploadBody } } },
          response: responses({ 200: Policy }, 400, 401, 403, 404, [413, 'The file is larger than 10 MB'], [415, 'Not a PDF, TXT or MD file'], 422),
        },
      },
      async (request) => documents.upload(request.principal, request.params.policy_id, () => readUpload(request)),
    );
  };
  await app.register(uploadRoute);

  app.get(
    '/v1/policies/:policy_id/file',
    {
      schema: {
        tags,
        summary: "Download the policy's document",
        params: PolicyParams,
        response: responses({ 200: UploadedFileContent }, 401, 403, 404, 422),
      },
    },
    async (request, reply) => sendFile(reply, await documents.download(request.principal, request.params.policy_id)),
  );

  app.delete(
    '/v1/policies/:policy_id/file',
    {
      schema: {
        tags,
        summary: "Delete the policy's document (its source text stays)",
        params: PolicyParams,
        response: responses({ 200: Policy }, 401, 403, 404, 422),
      },
    },
    async (request) => documents.remove(request.principal, request.params.policy_id),
  );

  app.get(
    '/v1/policies/:policy_id/converted',
    {
      schema: {
        tags,
        summary: 'Download the document converted to Markdown (400 when there is none)',
        params: PolicyParams,
        response: responses({ 200: ConvertedFileContent }, 400, 401, 403, 404, 422),
      },
    },
    async (request, reply) => sendFile(reply, await documents.converted(request.principal, request.params.policy_id)),
  );
};
