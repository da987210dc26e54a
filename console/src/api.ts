// The console's only way to the service: the public /v1 API with the signed-in user's token.
// The token lives in sessionStorage (one tab, gone when it closes), never in localStorage.

const TOKEN_KEY = 'warden.token';
const TEAM_KEY = 'warden.team';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let onUnauthorized: () => void = () => undefined;

export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  setToken(token: string | null): void {
    if (token === null) sessionStorage.removeItem(TOKEN_KEY);
    else sessionStorage.setItem(TOKEN_KEY, token);
  },
  team: (): string | null => sessionStorage.getItem(TEAM_KEY),
  setTeam(team: string | null): void {
    if (team === null) sessionStorage.removeItem(TEAM_KEY);
    else sessionStorage.setItem(TEAM_KEY, team);
  },
  /** Called on any 401: the app clears the session and shows the sign-in page. */
  onUnauthorized(handler: () => void): void {
    onUnauthorized = handler;
  },
};

/** The API's message: `detail` as a string, or pydantic's list of `{loc, msg}`. */
export function messageOf(status: number, body: unknown): string {
  const detail = (body as { detail?: unknown; error?: { message?: string } } | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((item: { loc?: unknown[]; msg?: string }) => {
        const where = (item.loc ?? []).filter((part) => part !== 'body' && part !== 'query').join('.');
        return where ? `${where}: ${item.msg ?? ''}` : (item.msg ?? '');
      })
      .join('; ');
  }
  const error = (body as { error?: { message?: string } } | null)?.error;
  if (error?.message) return error.message;
  return `The service answered ${status}`;
}

type Query = Record<string, string | number | boolean | readonly string[] | null | undefined>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined || value === '') continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

async function send(method: string, path: string, body?: unknown, query?: Query): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = session.token();
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(withQuery(path, query), { method, headers, body: payload ?? null });
  } catch {
    throw new ApiError(0, 'The service cannot be reached: is Warden running?');
  }
  if (response.ok) return response;
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (response.status === 401 && !path.startsWith('/v1/auth/jwt/login') && !path.startsWith('/v1/auth/change-password')) {
    onUnauthorized();
  }
  throw new ApiError(response.status, messageOf(response.status, parsed));
}

export async function api<T = any>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
  const response = await send(method, path, body, query);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const get = <T = any>(path: string, query?: Query) => api<T>('GET', path, undefined, query);

/** Downloads an authenticated file: fetched with the token, saved through a blob link. */
export async function download(path: string, fallbackName: string, query?: Query): Promise<string> {
  const response = await send('GET', path, undefined, query);
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName;
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

/** The list of any of the API's list shapes (`results`, `campaigns`, `dome_configs`, a bare array). */
export function itemsOf<T = any>(body: any): T[] {
  if (Array.isArray(body)) return body as T[];
  for (const key of ['results', 'campaigns', 'dome_configs', 'evaluations', 'items']) {
    if (Array.isArray(body?.[key])) return body[key] as T[];
  }
  return [];
}

/** The total count of a list answer, when it gives one. */
export function totalOf(body: any): number | undefined {
  for (const key of ['count', 'total']) if (typeof body?.[key] === 'number') return body[key] as number;
  return undefined;
}
