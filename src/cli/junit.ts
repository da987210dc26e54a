/**
 * JUnit XML, as GitHub Actions (test reporters), GitLab (`artifacts:reports:junit`) and Jenkins
 * read it: one <testsuite> per run, one <testcase> per harness (or category) and one per failed
 * prompt (or successful attack), with the reason as the failure message.
 */

export interface JunitCase {
  classname: string;
  name: string;
  /** Absent: the case passed. */
  failure?: { message: string; body?: string } | undefined;
  skipped?: string | undefined;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes for XML 1.0, dropping the characters it cannot carry at all (C0 controls but tab and newlines, lone surrogates). */
export function xmlEscape(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

export function junitXml(
  suite: { name: string; timestampSeconds?: number; properties?: Record<string, string> },
  cases: readonly JunitCase[],
): string {
  const failures = cases.filter((c) => c.failure).length;
  const skipped = cases.filter((c) => !c.failure && c.skipped).length;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const stamp = suite.timestampSeconds ? ` timestamp="${new Date(suite.timestampSeconds * 1000).toISOString().slice(0, 19)}"` : '';
  out.push(`<testsuites name="warden" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}">`);
  out.push(`  <testsuite name="${xmlEscape(suite.name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}"${stamp}>`);
  if (suite.properties && Object.keys(suite.properties).length > 0) {
    out.push('    <properties>');
    for (const [name, value] of Object.entries(suite.properties)) out.push(`      <property name="${xmlEscape(name)}" value="${xmlEscape(value)}"/>`);
    out.push('    </properties>');
  }
  for (const c of cases) {
    const open = `    <testcase classname="${xmlEscape(c.classname)}" name="${xmlEscape(c.name)}"`;
    if (c.failure) {
      out.push(`${open}>`);
      out.push(`      <failure message="${xmlEscape(c.failure.message)}" type="warden">${xmlEscape(c.failure.body ?? c.failure.message)}</failure>`);
      out.push('    </testcase>');
    } else if (c.skipped) {
      out.push(`${open}>`, `      <skipped message="${xmlEscape(c.skipped)}"/>`, '    </testcase>');
    } else {
      out.push(`${open}/>`);
    }
  }
  out.push('  </testsuite>', '</testsuites>', '');
  return out.join('\n');
}
