import type { IncomingHttpHeaders } from 'node:http';
import type { LookupFunction } from 'node:net';
import { Agent, util, type Dispatcher } from 'undici';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Transform } from 'node:stream';
import { OutboundRefusal, type OutboundFence } from './outbound.js';

/**
 * One HTTP POST to an agent, fenced, bounded in time and size, cancellable. No retries and no
 * redirects here (connector.ts decides); nothing about the request (its headers carry the key)
 * ever reaches an error.
 */

export type AttemptFailureKind = 'timeout' | 'network' | 'refused_address' | 'too_large' | 'cancelled';

export class AttemptFailure extends Error {
  constructor(
    readonly kind: AttemptFailureKind,
    message: string,
    /** Worth another attempt (a reset, a refused connection, a timeout…). */
    readonly transient: boolean,
  ) {
    super(message);
    this.name = 'AttemptFailure';
  }
}

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body was cut at the bound (only for non-2xx answers, whose excerpt is all we read). */
  truncated: boolean;
}

export interface PostOptions {
  url: URL;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  maxResponseBytes: number;
  signal?: AbortSignal | undefined;
  fence: OutboundFence;
  /** The connector's pool (`createOutboundPool`): kept-alive connections, each made through the fence. */
  dispatcher: Dispatcher;
}

/** What is read of an error answer: enough for an excerpt, never the whole of a large page. */
const ERROR_BODY_BYTES = 16 * 1024;

const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ECONNABORTED', 'EAI_AGAIN', 'ETIMEDOUT', 'UND_ERR_SOCKET']);
const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  // undici's word for a connection closed or reset under a request or an answer.
  UND_ERR_SOCKET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  ECONNABORTED: 'the connection was aborted',
  ETIMEDOUT: 'the connection timed out',
  ENOTFOUND: 'its host name could not be resolved',
  EAI_AGAIN: 'its host name could not be resolved now',
  EHOSTUNREACH: 'its host is unreachable',
  ENETUNREACH: 'its network is unreachable',
};

function describeNetworkError(error: unknown): AttemptFailure {
  if (error instanceof OutboundRefusal) return new AttemptFailure('refused_address', error.message, false);
  const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : '';
  if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code)) return new AttemptFailure('network', `its TLS certificate was not accepted (${code})`, false);
  const words = NETWORK_WORDS[code] ?? (code ? `a network error occurred (${code})` : 'a network error occurred');
  return new AttemptFailure('network', words, TRANSIENT_CODES.has(code));
}

/**
 * Every address the fence let through, in the shape node's `lookup` option expects: the
 * address checked is the address connected to. Also used by agent import's card discovery.
 */
export function fencedLookup(fence: OutboundFence): LookupFunction {
  return (hostname, options, callback) => {
    fence.resolve(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        if (wanted.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no address of the family asked for`), { code: 'ENOTFOUND' }), '', 4);
        } else if (options.all) {
          (callback as unknown as (err: null, addresses: Array<{ address: string; family: number }>) => void)(null, wanted);
        } else {
          callback(null, wanted[0]!.address, wanted[0]!.family);
        }
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
}

function decoder(encoding: string | undefined): Transform | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return null;
  }
}

/**
 * The connector's pool of kept-alive connections (undici, docs/decisions.md): every connection
 * is made through the fence's lookup, so the address checked is the address connected to. No
 * connect, header or body timeout of undici's own: each attempt's `timeoutMs` bounds all of it.
 */
export function createOutboundPool(fence: OutboundFence): Agent {
  return new Agent({ connect: { lookup: fencedLookup(fence), timeout: 0 }, headersTimeout: 0, bodyTimeout: 0 });
}

/** What both posts share: one end for the call, kept to the first reason it was stopped for. */
interface CallEnd {
  /** Ends the call (the first reason is kept): runs `onStop` once. */
  stop(failure: AttemptFailure): void;
  /** What is done when the call is stopped (aborting its request, settling its promise). */
  onStop: ((failure: AttemptFailure) => void) | null;
  /** The reason the call was stopped for, once it was. */
  readonly ending: AttemptFailure | null;
  /** What the call reports for an error: the reason it was stopped for, if any, else the error described. */
  reason(error: unknown): AttemptFailure;
  /** Stops listening to the caller's signal. */
  detach(): void;
}

/** The end of one call, stopped at once if the caller's signal is already aborted, else when it is. */
function callEnd(signal: AbortSignal | undefined): CallEnd {
  const onCancel = () => end.stop(new AttemptFailure('cancelled', 'the call was cancelled', false));
  const end: CallEnd = {
    ending: null,
    onStop: null,
    stop(failure) {
      if (end.ending !== null) return;
      (end as { ending: AttemptFailure | null }).ending = failure;
      end.onStop?.(failure);
    },
    reason: (error) => end.ending ?? (error instanceof AttemptFailure ? error : describeNetworkError(error)),
    detach: () => signal?.removeEventListener('abort', onCancel),
  };
  if (signal?.aborted) onCancel();
  else signal?.addEventListener('abort', onCancel, { once: true });
  return end;
}

function noAnswerWithin(timeoutMs: number): string {
  const seconds = timeoutMs / 1000;
  return `no answer within ${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** Sends the POST on the connector's pool (its connections made through the fence's lookup). */
function sendPost(options: PostOptions, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  const { url } = options;
  return options.dispatcher.request({
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    method: 'POST',
    headers: options.headers,
    body: options.body,
    signal,
  });
}

const headerText = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

/**
 * One POST whose answer is read whole, on undici's `dispatch` (no stream, promise or abort signal
 * of undici's own per call: the answer's chunks come straight to this handler). The promise
 * settles as soon as the call is stopped (timeout, cancel, too large), even while the connection
 * is still being made; the request is aborted then, or as soon as it reaches a connection.
 */
export function postJson(options: PostOptions): Promise<HttpAnswer> {
  try {
    options.fence.checkHost(options.url.hostname);
  } catch (error) {
    return Promise.reject(describeNetworkError(error));
  }
  return new Promise<HttpAnswer>((resolve, reject) => {
    const call = callEnd(options.signal);
    let settled = false;
    let abort: ((reason: Error) => void) | null = null;
    let plain: Transform | null = null;
    const settle = () => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      call.detach();
      // A decompressor still holding input (an answer cut at its bound) does no more work.
      plain?.destroy();
      return true;
    };
    const fail = (error: unknown) => {
      if (settle()) reject(call.reason(error));
    };
    call.onStop = (failure) => {
      fail(failure);
      abort?.(failure);
    };
    const timer = setTimeout(() => call.stop(new AttemptFailure('timeout', noAnswerWithin(options.timeoutMs), true)), options.timeoutMs);
    if (call.ending !== null) {
      fail(call.ending);
      return;
    }

    const tooLarge = () => new AttemptFailure('too_large', `answer passed ${describeBytes(options.maxResponseBytes)}; it was cut off`, false);
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    let ok = false;
    let limit = 0;
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (truncated: boolean) => {
      if (settle()) resolve({ status, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), truncated });
    };
    /** A chunk of the (decompressed) answer: kept within the bound. */
    const take = (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        if (ok) {
          // Aborting drops the connection: the rest of a huge answer is not wanted.
          call.stop(tooLarge());
          return;
        }
        chunks.push(chunk.subarray(0, chunk.length - (size - limit)));
        finish(true);
        abort?.(new AttemptFailure('too_large', 'the error answer was read far enough', false));
        return;
      }
      chunks.push(chunk);
    };

    const { url } = options;
    const handler: Dispatcher.DispatchHandler = {
      onConnect(abortRequest) {
        if (settled) abortRequest(call.ending ?? new AttemptFailure('cancelled', 'the call was cancelled', false));
        else abort = abortRequest;
      },
      onHeaders(statusCode, rawHeaders) {
        if (statusCode < 200) return true;
        status = statusCode;
        headers = util.parseHeaders(rawHeaders) as IncomingHttpHeaders;
        ok = status >= 200 && status < 300;
        limit = ok ? options.maxResponseBytes : Math.min(ERROR_BODY_BYTES, options.maxResponseBytes);
        plain = decoder(headerText(headers['content-encoding']));
        const declared = Number(headers['content-length']);
        if (ok && plain === null && Number.isFinite(declared) && declared > limit) {
          call.stop(tooLarge());
          return false;
        }
        if (plain !== null) {
          plain.on('data', take);
          plain.on('end', () => finish(false));
          plain.on('error', () => fail(new AttemptFailure('network', 'its compressed answer could not be read', false)));
        }
        return true;
      },
      onData(chunk) {
        if (settled) return true;
        if (plain !== null) plain.write(chunk);
        else take(chunk);
        return true;
      },
      onComplete() {
        if (plain !== null) plain.end();
        else finish(false);
      },
      onError: fail,
    };
    try {
      const request = { origin: url.origin, path: `${url.pathname}${url.search}`, method: 'POST' as const, headers: options.headers, body: options.body };
      options.dispatcher.dispatch(request, handler);
    } catch (error) {
      fail(error);
    }
  });
}

export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

export interface OpenAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** 2xx: the body, as it arrives (decompressed), bounded in size and by an idle timeout. */
  stream: AsyncIterable<Buffer>;
}

/**
 * One POST whose 2xx answer is read as it arrives (a streamed chat completion, A2A
 * `message/stream`). Until the headers come, `timeoutMs` bounds the wait as in `postJson`; after,
 * the same time bounds each silence between two chunks, and `maxResponseBytes` the whole answer
 * (both end the stream with an AttemptFailure). A non-2xx answer is read whole, as by `postJson`.
 */
export function postForStream(options: PostOptions): Promise<OpenAnswer | HttpAnswer> {
  try {
    options.fence.checkHost(options.url.hostname);
  } catch (error) {
    return Promise.reject(describeNetworkError(error));
  }
  const call = callEnd(options.signal);
  const controller = new AbortController();
  /** Settles (rejects) as soon as the call is stopped, even before undici reaches a connection. */
  const stopped = new Promise<never>((_, reject) => {
    call.onStop = (failure) => {
      controller.abort(failure);
      reject(failure);
    };
  });
  stopped.catch(() => undefined);
  const silence = () => new AttemptFailure('timeout', noAnswerWithin(options.timeoutMs), false);
  let timer = setTimeout(() => call.stop(silence()), options.timeoutMs);
  const rearm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => call.stop(silence()), options.timeoutMs);
  };
  const release = () => {
    clearTimeout(timer);
    call.detach();
  };

  const sent = sendPost(options, controller.signal);
  // An answer that comes after the call was stopped is dropped (its connection with it).
  sent.then((late) => (call.ending === null ? undefined : late.body.destroy()), () => undefined);
  return Promise.race([sent, stopped]).then<OpenAnswer | HttpAnswer, never>(
    (response): Promise<HttpAnswer> | OpenAnswer => {
      const status = response.statusCode;
      const headers = response.headers as IncomingHttpHeaders;
      const raw = response.body;
      const plain = decoder(headerText(headers['content-encoding']));
      const body = plain ? raw.pipe(plain) : raw;
      if (status < 200 || status >= 300) {
        return new Promise<HttpAnswer>((resolve, reject) => {
          const fail = (error: unknown) => {
            release();
            reject(call.reason(error));
          };
          const chunks: Buffer[] = [];
          let size = 0;
          body.on('data', (chunk: Buffer) => {
            if (size < ERROR_BODY_BYTES) chunks.push(chunk);
            size += chunk.length;
          });
          body.on('end', () => {
            release();
            resolve({ status, headers, body: Buffer.concat(chunks).subarray(0, ERROR_BODY_BYTES), truncated: size > ERROR_BODY_BYTES });
          });
          body.on('error', fail);
          if (plain) raw.on('error', fail);
        });
      }
      rearm();
      async function* chunks(): AsyncIterable<Buffer> {
        let size = 0;
        let complete = false;
        try {
          for await (const chunk of body as AsyncIterable<Buffer>) {
            rearm();
            size += chunk.length;
            if (size > options.maxResponseBytes) {
              throw new AttemptFailure('too_large', `answer passed ${describeBytes(options.maxResponseBytes)}; it was cut off`, false);
            }
            yield chunk;
          }
          complete = true;
        } catch (error) {
          throw call.reason(error);
        } finally {
          release();
          if (!complete) raw.destroy();
        }
      }
      const open: OpenAnswer = { status, headers, stream: chunks() };
      return open;
    },
    (error: unknown) => {
      release();
      return Promise.reject(call.reason(error));
    },
  );
}
