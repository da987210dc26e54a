import path from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { AppError } from '../../http/errors.js';

export type DocumentKind = 'pdf' | 'txt' | 'md';

export const DOCUMENT_CONTENT_TYPES: Record<DocumentKind, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
};

const EXTENSIONS: Record<string, DocumentKind> = { '.pdf': 'pdf', '.txt': 'txt', '.text': 'txt', '.md': 'md', '.markdown': 'md' };

const unsupported = (why: string) =>
  new AppError('unsupported_media_type', `${why}: upload a PDF (.pdf), plain text (.txt) or Markdown (.md) file`);

/**
 * The kind of an uploaded document, decided by its name and confirmed by its bytes: a PDF
 * starts with `%PDF-`; text must be valid UTF-8 without NUL bytes. The declared MIME type
 * is not trusted (browsers send `application/octet-stream` for .md).
 */
export function detectKind(fileName: string, content: Uint8Array): DocumentKind {
  const kind = EXTENSIONS[path.extname(fileName).toLowerCase()];
  if (kind === undefined) throw unsupported(`"${fileName}" is not a supported document type`);
  if (kind === 'pdf') {
    if (Buffer.from(content.subarray(0, 1024)).indexOf('%PDF-') === -1) throw unsupported(`"${fileName}" is not a PDF file`);
    return kind;
  }
  if (decodeUtf8(content) === undefined) throw unsupported(`"${fileName}" is not UTF-8 text`);
  return kind;
}

function decodeUtf8(content: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(content);
    return text.includes('\u0000') ? undefined : text;
  } catch {
    return undefined;
  }
}

/** Collapses the spacing PDF text extraction leaves behind, keeping paragraph breaks. */
function tidy(text: string): string {
  return text
    .replace(/\u0000/g, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The document as Markdown: the text of a PDF (one `## Page n` section per page when it
 * has several), a text file as it is, a Markdown file as it is.
 */
export async function toMarkdown(kind: DocumentKind, content: Uint8Array, title: string): Promise<string> {
  if (kind !== 'pdf') return (decodeUtf8(content) ?? '').replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  let pages: string[];
  try {
    const pdf = await getDocumentProxy(new Uint8Array(content), { verbosity: 0 });
    try {
      pages = (await extractText(pdf, { mergePages: false })).text;
    } finally {
      await pdf.destroy();
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('bad_request', `The PDF could not be read (${error instanceof Error ? error.name : 'unknown error'}); is it damaged or encrypted?`);
  }
  const cleaned = pages.map(tidy);
  const body = cleaned.length === 1 ? (cleaned[0] ?? '') : cleaned.map((p, i) => `## Page ${i + 1}\n\n${p}`).join('\n\n');
  return `# ${title}\n\n${body}\n`;
}
