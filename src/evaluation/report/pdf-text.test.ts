import { execFileSync } from 'node:child_process';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { drawRuns, layoutRuns, pdfRuns, registerFonts, visualOrder } from './pdf-text.js';

const lineTexts = (text: string, width = 400) => {
  const doc = new PDFDocument({ size: 'A4' });
  registerFonts(doc);
  return layoutRuns(doc, pdfRuns(text, 'regular').runs, 9, width, 0).lines.map((line) => line.pieces.map((p) => p.text).join(''));
};

describe('the PDF line layout', () => {
  it('keeps the indentation a line of the text starts with (a JSON configuration), not spaces at a wrap', () => {
    expect(lineTexts('{\n  "input-guards": [\n    "redteam-encoding"\n  ]\n}')).toEqual(['{', '  "input-guards": [', '    "redteam-encoding"', '  ]', '}']);
    const wrapped = lineTexts('word '.repeat(40).trim(), 100);
    expect(wrapped.length).toBeGreaterThan(1);
    for (const line of wrapped) expect(line.startsWith(' ')).toBe(false);
  });

  it('draws a sequence of right-to-left words right to left inside a left-to-right line', () => {
    const pieces = ['Please', ' ', 'התעלם', ' ', 'מההוראות', ' ', 'now'].map((text) => ({ text }));
    expect(visualOrder(pieces).map((p) => p.text)).toEqual(['Please', ' ', 'מההוראות', ' ', 'התעלם', ' ', 'now']);
  });

  it('puts right-to-left words right to left in a one-line label too (pdftotext reads them in order)', async () => {
    const doc = new PDFDocument({ size: 'A4' });
    registerFonts(doc);
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
    drawRuns(doc, pdfRuns('Harness בוט תמיכה ok', 'regular').runs, 50, 50, 10, { lineBreak: false });
    doc.end();
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: await done }).toString('utf8');
    expect(text).toContain('בוט תמיכה');
  });
});
