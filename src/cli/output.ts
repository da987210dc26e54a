/** How commands print: a table or lines for people, JSON with --json for machines. */

export interface Printer {
  json: boolean;
  out: (line: string) => void;
  err: (line: string) => void;
}

export const consolePrinter = (json: boolean): Printer => ({
  json,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});

export function table(rows: readonly Record<string, unknown>[], columns: readonly string[]): string {
  const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)).replace(/\s+/g, ' ');
  const widths = columns.map((c) => Math.min(48, Math.max(c.length, ...rows.map((r) => cell(r[c]).length))));
  const fit = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width));
  const lines = [columns.map((c, i) => fit(c.toUpperCase(), widths[i] ?? c.length)).join('  ')];
  for (const row of rows) lines.push(columns.map((c, i) => fit(cell(row[c]), widths[i] ?? 0)).join('  '));
  return lines.map((l) => l.trimEnd()).join('\n');
}

/**
 * Progress on a terminal: one bar redrawn in place. Elsewhere (a CI log): a plain line when
 * the count moves by a tenth of the total or 10 seconds have passed, so logs stay short.
 */
export class Progress {
  private lastLine = '';
  private lastPrintedAt = 0;
  private lastDone = -1;
  private paused = false;
  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly label: string,
    private readonly now: () => number = Date.now,
  ) {}

  update(done: number, total: number, note = ''): void {
    if (this.paused) return;
    if (this.stream.isTTY) {
      const width = 30;
      const filled = total > 0 ? Math.round((done / total) * width) : 0;
      // Before the run knows its size (queued), the note alone: an empty bar of 0/0 says nothing.
      const line =
        total > 0 ? `${this.label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}${note ? `  ${note}` : ''}` : `${this.label}: ${note}`;
      if (line !== this.lastLine) this.stream.write(`\r\x1b[2K${line}`);
      this.lastLine = line;
      return;
    }
    const step = Math.max(1, Math.ceil(total / 10));
    const due = this.now() - this.lastPrintedAt >= 10_000;
    if (done !== this.lastDone && (this.lastDone < 0 || done - this.lastDone >= step || done === total || due)) {
      this.stream.write(total > 0 ? `${this.label}: ${done}/${total}${note ? ` ${note}` : ''}\n` : `${this.label}: ${note}\n`);
      this.lastDone = done;
      this.lastPrintedAt = this.now();
    }
  }

  /** Stops drawing (a question is being asked on the terminal: the bar must not write over it). */
  pause(): void {
    this.paused = true;
  }

  end(): void {
    if (this.stream.isTTY && this.lastLine) this.stream.write('\n');
    this.lastLine = '';
  }
}
