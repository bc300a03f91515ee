/**
 * The engine's HTTP client for one account's gateway session: Bearer token, a client
 * request id per attempt (`X-Request-Id`), a timeout, retries by the spec's rules, replies
 * parsed with the shared zod schemas and every failure turned into a catalogue TernError.
 */
import type { z } from 'zod';
import { systemClock, type Clock } from '../../shared/clock';
import type { LogType } from '../../shared/constants';
import { TernError, type ErrorName } from '../../shared/errors';
import type { RequestType } from './request-id';
import { DEFAULT_RETRIES, DEFAULT_RETRY_DELAY_MS, isRetryable, retryDelay } from './retry';
import { endsSession } from './session-ended';
import { defaultUploadFetch, type UploadFetch, type UploadProgressListener } from './upload-fetch';

/** Where an account's requests go and with which token (read per request: a new login renews it). */
export interface GatewaySession {
  /** The account's API base, e.g. `https://mail.example.com/api`. */
  readonly api: string;
  readonly token: string;
}

export interface GatewayClientDeps {
  readonly fetch: typeof fetch;
  /** Carries requests that report upload progress; default XMLHttpRequest where there is one (upload-fetch.ts). */
  readonly uploadFetch?: UploadFetch;
  readonly session: () => GatewaySession | Promise<GatewaySession>;
  readonly requestId: (type: RequestType) => string;
  readonly clock?: Clock;
  /** Per attempt; default 20 s (a cold IMAP body fetch can take seconds). */
  readonly timeoutMs?: number;
  readonly retries?: number;
  readonly retryDelayMs?: number;
  /** The engine's logger; failures are logged as API lines (network errors are not errors, spec §8). */
  readonly log?: (type: LogType, message: string) => void;
  /** Told when a reply says the session is over (401 InvalidToken …), whichever request met it. */
  readonly onSessionEnded?: (error: TernError) => void;
}

export interface GatewayRequest {
  readonly type: RequestType;
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** After the API base, e.g. `/delta`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly json?: unknown;
  readonly form?: FormData;
  readonly headers?: Readonly<Record<string, string>>;
  /** false: never repeated (e.g. an upload, which is not idempotent). */
  readonly retry?: boolean;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Told how much of the request body has been sent (uploads). */
  readonly onUploadProgress?: UploadProgressListener;
}

export const DEFAULT_TIMEOUT_MS = 20_000;

/** A reply without a catalogue body, named by its status. */
function nameForStatus(status: number): ErrorName {
  if (status === 401) return 'InvalidToken';
  if (status === 404) return 'NoSuchMethod';
  if (status === 408) return 'RequestTimeout';
  if (status === 429) return 'TooManyRequests';
  if (status >= 500) return 'InternalServerError';
  return 'InvalidRequestData';
}

export function errorFromReply(status: number, body: unknown, requestId: string): TernError {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const reply = body as Record<string, unknown>;
    return TernError.from({ ...reply, requestId: typeof reply.requestId === 'string' ? reply.requestId : requestId });
  }
  return new TernError(nameForStatus(status), { requestId, detail: { status } });
}

/** Thrown where no request could be made at all; the UI says "offline" (detail.network). */
const networkError = (requestId: string) => new TernError('OperationFailed', { requestId, detail: { network: true } });

export class GatewayClient {
  private readonly clock: Clock;
  private readonly uploadFetch: UploadFetch;

  constructor(private readonly deps: GatewayClientDeps) {
    this.clock = deps.clock ?? systemClock;
    this.uploadFetch = deps.uploadFetch ?? defaultUploadFetch(deps.fetch);
  }

  /** A JSON request whose reply is parsed with `schema`. */
  async json<T>(request: GatewayRequest, schema: z.ZodType<T>): Promise<T> {
    return this.withRetries(request, async (response, requestId) => {
      const body: unknown = response.status === 204 ? null : await response.json().catch(() => undefined);
      const parsed = schema.safeParse(body);
      if (!parsed.success) {
        throw new TernError('InternalServerError', { requestId, detail: { reason: 'unexpected reply', path: request.path, issue: parsed.error.issues[0]?.path.join('.') } });
      }
      return parsed.data;
    });
  }

  /** The absolute address of a path under the account's API base (a link the gateway handed out). */
  async urlOf(path: string): Promise<string> {
    return this.url((await this.deps.session()).api, { type: 'attachmentPreview', path });
  }

  /** A request whose reply is a file (attachments). */
  async blob(request: GatewayRequest): Promise<Blob> {
    return this.withRetries(request, (response) => response.blob());
  }

  private async withRetries<T>(request: GatewayRequest, read: (response: Response, requestId: string) => Promise<T>): Promise<T> {
    const retries = request.retry === false ? 0 : (this.deps.retries ?? DEFAULT_RETRIES);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(request, read);
      } catch (error) {
        const failure = error as { replyBody?: unknown };
        if (attempt >= retries || !isRetryable(error, failure.replyBody) || request.signal?.aborted) throw error;
        await this.sleep(retryDelay(attempt + 1, this.deps.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS), request.signal);
      }
    }
  }

  private async attempt<T>(request: GatewayRequest, read: (response: Response, requestId: string) => Promise<T>): Promise<T> {
    const session = await this.deps.session();
    const requestId = this.deps.requestId(request.type);
    const url = this.url(session.api, request);
    const controller = new AbortController();
    let timedOut = false;
    const timeoutMs = request.timeoutMs ?? this.deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const arm = () =>
      this.clock.setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
    let timer = arm();
    const onAbort = () => controller.abort();
    request.signal?.addEventListener('abort', onAbort);
    const method = request.method ?? (request.json === undefined && request.form === undefined ? 'GET' : 'POST');
    try {
      let response: Response;
      const { onUploadProgress } = request;
      // An upload that is still moving is not timed out: its timeout counts the silence since the last progress.
      const progressed: UploadProgressListener = (loaded, total) => {
        this.clock.clearTimeout(timer);
        timer = arm();
        onUploadProgress?.(loaded, total);
      };
      const send = onUploadProgress ? (target: string, init: RequestInit) => this.uploadFetch(target, init, progressed) : this.deps.fetch;
      try {
        response = await send(url, {
          method,
          headers: {
            authorization: `Bearer ${session.token}`,
            'x-request-id': requestId,
            ...(request.json === undefined ? {} : { 'content-type': 'application/json' }),
            ...request.headers,
          },
          ...(request.json !== undefined ? { body: JSON.stringify(request.json) } : request.form ? { body: request.form } : {}),
          signal: controller.signal,
        });
      } catch (error) {
        throw this.failure(error, { timedOut, request, requestId, url });
      }
      if (!response.ok) {
        const body: unknown = await response.json().catch(() => undefined);
        const error = errorFromReply(response.status, body, requestId);
        this.deps.log?.('API', `${method} ${request.path} → ${response.status} ${error.name} (${requestId})`);
        if (endsSession(error)) this.deps.onSessionEnded?.(error);
        throw Object.assign(error, { replyBody: body });
      }
      try {
        return await read(response, requestId);
      } catch (error) {
        if (error instanceof TernError) throw error;
        throw this.failure(error, { timedOut, request, requestId, url });
      }
    } finally {
      this.clock.clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** What a fetch that never got an answer means: the caller's abort, our timeout, or the network. */
  private failure(error: unknown, context: { timedOut: boolean; request: GatewayRequest; requestId: string; url: string }): unknown {
    if (context.request.signal?.aborted) return context.request.signal.reason ?? error;
    if (context.timedOut) {
      this.deps.log?.('API', `Timeout: ${context.url} (${context.requestId})`);
      return new TernError('RequestTimeout', { requestId: context.requestId, detail: { url: context.url } });
    }
    return networkError(context.requestId);
  }

  private url(api: string, request: GatewayRequest): string {
    const url = new URL(`${api.replace(/\/+$/, '')}${request.path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    return url.toString();
  }

  private sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        signal?.removeEventListener('abort', stop);
        resolve();
      }, ms);
      const stop = () => {
        this.clock.clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', stop, { once: true });
    });
  }
}
