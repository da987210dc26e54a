// A small history router: the console's pages are plain paths (/agents/…); the service answers
// index.html for them (src/http/console.ts) and the API's own paths stay the API's.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();

/** Whether the user has moved within the console: from then on, each new page takes the focus. */
export const moved = { yet: false };

export function navigate(to: string, replace = false): void {
  moved.yet = true;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

export interface Location {
  path: string;
  query: URLSearchParams;
}

export function useLocation(): Location {
  const read = () => ({ path: location.pathname, query: new URLSearchParams(location.search) });
  const [current, setCurrent] = useState<Location>(read);
  useEffect(() => {
    const listener = () => setCurrent(read());
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return current;
}

/** `/agents/:id` against `/agents/42` → `{ id: '42' }`; null when it does not match. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i] as string;
    const value = got[i] as string;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return null;
  }
  return params;
}

export function Link(props: { href: string; children: ComponentChildren; class?: string; current?: boolean }) {
  return (
    <a
      href={props.href}
      class={props.class}
      aria-current={props.current ? 'page' : undefined}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(props.href);
      }}
    >
      {props.children}
    </a>
  );
}
