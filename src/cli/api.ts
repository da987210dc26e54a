/**
 * The CLI's and the stdio MCP server's way to Warden: its public API over HTTP, with
 * WARDEN_URL and a token (WARDEN_API_KEY or the one `warden login` stored). Nothing here knows
 * the service's internals: what the CLI can do, any client of the API can do.
 */

/** A usage, connection or service error: the command exits 2 with this one-line message. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
    /** The API's HTTP status, when the error is an API answer. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** One call to the API: the transport the CLI (fetch) and the in-service MCP server (inject) share. */
export type ApiTransport = (request: {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string | undefined;
}) => Promise<ApiResponse>;

export type Query = Record<string, string | number | boolean | undefined | null | readonly string[]>;

export function withQuery(path: string, query: Query | undefined): string {
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

/** The message a person reads for an API error answer: FastAPI-shaped `detail` or OpenAI-shaped `error`. */
export function errorMessage(status: number, body: Buffer): string {
  const text = body.toString('utf8');
  try {
    const json = JSON.parse(text) as { detail?: unknown; error?: { message?: unknown }; message?: unknown };
    if (typeof json.detail === 'string') return `${status}: ${json.detail}`;
    if (Array.isArray(json.detail)) {
      const first = json.detail
        .slice(0, 3)
        .map((issue: { loc?: unknown[]; msg?: string }) => `${(issue.loc ?? []).join('.')}: ${issue.msg ?? ''}`)
        .join('; ');
      return `${status}: ${first}`;
    }
    if (json.error && typeof json.error.message === 'string') return `${status}: ${json.error.message}`;
    if (typeof json.message === 'string') return `${status}: ${json.message}`;
  } catch {
    // not JSON: fall through
  }
  return `${status}: ${text.slice(0, 200).replace(/\s+/g, ' ').trim() || 'no message'}`;
}

export class WardenApi {
  constructor(
    private readonly transport: ApiTransport,
    private readonly token: string | undefined,
    /** Where the answers come from, for messages. */
    readonly where: string,
  ) {}

  /** Calls the API; a non-2xx answer throws a CliError carrying the API's message. */
  async call(method: string, path: string, options: { query?: Query; body?: unknown; accept?: string } = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let body: Buffer | string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await this.transport({ method, path: withQuery(path, options.query), headers, body });
    if (response.status >= 400) {
      const hint = response.status === 401 ? ' (set WARDEN_API_KEY or run `warden login`)' : '';
      throw new CliError(`${method} ${path.split('?')[0]} answered ${errorMessage(response.status, response.body)}${hint}`, 2, response.status);
    }
    return response;
  }

  async json<T = unknown>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
    const response = await this.call(method, path, options);
    if (response.body.length === 0) return undefined as T;
    try {
      return JSON.parse(response.body.toString('utf8')) as T;
    } catch {
      throw new CliError(`${method} ${path} answered something that is not JSON`);
    }
  }

  get<T = unknown>(path: string, query?: Query): Promise<T> {
    return this.json<T>('GET', path, { query });
  }

  post<T = unknown>(path: string, body?: unknown, query?: Query): Promise<T> {
    return this.json<T>('POST', path, { body, query });
  }

  put<T = unknown>(path: string, body?: unknown): Promise<T> {
    return this.json<T>('PUT', path, { body });
  }

  /** Sends a multipart form (a file upload) with fetch's own encoder. */
  async upload(path: string, field: string, file: { name: string; data: Buffer; type: string }): Promise<unknown> {
    const form = new FormData();
    form.append(field, new Blob([file.data], { type: file.type }), file.name);
    const request = new Request('http://warden.invalid/', { method: 'POST', body: form });
    const body = Buffer.from(await request.arrayBuffer());
    const headers: Record<string, string> = {
      'content-type': request.headers.get('content-type') ?? 'multipart/form-data',
      accept: 'application/json',
    };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const response = await this.transport({ method: 'POST', path, headers, body });
    if (response.status >= 400) throw new CliError(`POST ${path} answered ${errorMessage(response.status, response.body)}`);
    return JSON.parse(response.body.toString('utf8')) as unknown;
  }
}

/** The transport over the network: Node's fetch against WARDEN_URL. */
export function httpTransport(baseUrl: string, timeoutMs = 60_000): ApiTransport {
  const base = baseUrl.replace(/\/+$/, '');
  return async ({ method, path, headers, body }) => {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new CliError(`cannot reach Warden at ${base}: ${reason} (is it running? WARDEN_URL sets where)`);
    }
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  };
}
