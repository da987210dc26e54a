import path from 'node:path';
import type { Deps } from '../../deps.js';
import { AppError, notFound } from '../../http/errors.js';
import type { Principal } from '../auth/permissions.js';
import { requireAnywhere } from '../auth/permissions.js';
import { DOCUMENT_CONTENT_TYPES, detectKind, toMarkdown, type DocumentKind } from './document-convert.js';
import { loadPolicy } from '../policies/policies.access.js';
import { toPolicy } from '../policies/policies.mapping.js';
import { updatePolicy } from '../policies/policies.repo.js';
import { SOURCE_TEXT_MAX } from '../policies/policies.schemas.js';
import * as repo from './documents.repo.js';

type DocumentDeps = Pick<Deps, 'db' | 'now'>;

/** Largest document accepted (the reference's limit). */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

export interface UploadedFile {
  fileName: string;
  content: Buffer;
}

export interface DownloadedFile {
  fileName: string;
  contentType: string;
  content: Buffer;
}

/** A file name safe to store and to put in a Content-Disposition header. */
function safeFileName(raw: string): string {
  const base = path.basename(raw.replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return (base || 'document').slice(0, 255);
}

export function createDocumentService(deps: DocumentDeps) {
  const { db, now } = deps;

  return {
    /**
     * Stores the document (replacing any earlier one), converts it to Markdown and makes
     * that Markdown the policy's source text, which rule extraction reads.
     */
    async upload(principal: Principal, policyId: string, readFile: () => Promise<UploadedFile>) {
      requireAnywhere(principal, 'policy:write');
      await loadPolicy(db, principal, policyId, 'policy:write');
      // The body is read only once the caller is known to be allowed to send it.
      const file = await readFile();
      if (file.content.length === 0) throw new AppError('bad_request', 'The uploaded file is empty');
      const fileName = safeFileName(file.fileName);
      const kind: DocumentKind = detectKind(fileName, file.content);
      const title = fileName.replace(/\.[^.]+$/, '');
      const markdown = await toMarkdown(kind, file.content, title);
      if (markdown.length > SOURCE_TEXT_MAX) {
        throw new AppError('payload_too_large', `The document's text is longer than ${SOURCE_TEXT_MAX} characters`);
      }
      const at = now();
      return db.transaction().execute(async (trx) => {
        await repo.putPolicyFile(trx, {
          policy_id: policyId,
          content: file.content,
          content_type: DOCUMENT_CONTENT_TYPES[kind],
          converted_markdown: markdown,
          created_at: at,
        });
        const updated = await updatePolicy(trx, policyId, {
          file_path: `policies/${policyId}/${fileName}`,
          file_name: fileName,
          file_type: kind,
          file_size_bytes: file.content.length,
          converted_file_path: `policies/${policyId}/converted.md`,
          source_text: markdown,
          updated_at: at,
        });
        if (updated === undefined) throw notFound('Policy');
        return toPolicy(updated);
      });
    },

    async download(principal: Principal, policyId: string): Promise<DownloadedFile> {
      requireAnywhere(principal, 'policy:read');
      const policy = await loadPolicy(db, principal, policyId, 'policy:read');
      const file = await repo.findPolicyFile(db, policyId);
      if (file === undefined || policy.file_name === null) throw new AppError('not_found', 'This policy has no attached file');
      return { fileName: policy.file_name, contentType: file.content_type, content: Buffer.from(file.content) };
    },

    /** The reference answers 400 when there is no converted file. */
    async converted(principal: Principal, policyId: string): Promise<DownloadedFile> {
      requireAnywhere(principal, 'policy:read');
      const policy = await loadPolicy(db, principal, policyId, 'policy:read');
      const file = await repo.findConvertedMarkdown(db, policyId);
      if (file?.converted_markdown == null) throw new AppError('bad_request', 'This policy has no converted file: upload a document first');
      const base = (policy.file_name ?? 'policy').replace(/\.[^.]+$/, '');
      return { fileName: `${base}.md`, contentType: 'text/markdown; charset=utf-8', content: Buffer.from(file.converted_markdown, 'utf8') };
    },

    /** Removes the file and its metadata; the source text extracted from it stays (as the reference says). */
    async remove(principal: Principal, policyId: string) {
      requireAnywhere(principal, 'policy:write');
      const policy = await loadPolicy(db, principal, policyId, 'policy:write');
      if (policy.file_name === null) throw new AppError('not_found', 'This policy has no attached file');
      const at = now();
      return db.transaction().execute(async (trx) => {
        await repo.deletePolicyFile(trx, policyId);
        const updated = await updatePolicy(trx, policyId, {
          file_path: null,
          file_name: null,
          file_type: null,
          file_size_bytes: null,
          converted_file_path: null,
          updated_at: at,
        });
        if (updated === undefined) throw notFound('Policy');
        return toPolicy(updated);
      });
    },
  };
}

export type DocumentService = ReturnType<typeof createDocumentService>;
