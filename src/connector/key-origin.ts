/**
 * Where a stored key may be sent (SECURITY.md, "Keys follow their origin"): to the origin
 * (scheme, host, port) it was given for. Whoever changes an agent's or a run's address to
 * another origin gives the key for it in the same request, or the key is not sent there.
 */

/** `scheme://host[:port]` of `url` (host lower-cased, default port left out); null for no URL. */
export function keyOrigin(url: string | null | undefined): string | null {
  if (url == null || url.trim() === '') return null;
  try {
    const parsed = new URL(url.trim());
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    // Not a URL: nothing can be called there, but a later fix of it is a change of origin.
    return `unparsed:${url.trim()}`;
  }
}

/** Whether a key given for `from` may be sent to `to`: same scheme, host and port (a path change keeps it). */
export function sameKeyOrigin(from: string | null | undefined, to: string | null | undefined): boolean {
  return keyOrigin(from) === keyOrigin(to);
}
