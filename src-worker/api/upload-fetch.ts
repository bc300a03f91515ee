/**
 * `fetch` for uploads, with upload progress. A fetch body reports nothing while it is sent
 * (a streamed request body would need HTTP/2 and still says nothing about what the socket
 * took), so where `XMLHttpRequest` exists (pages, dedicated and shared workers; not service
 * workers or Node) the request goes through it and its `upload.onprogress`, and the answer
 * comes back as an ordinary `Response` for the GatewayClient to read like any other.
 * Without XMLHttpRequest it is plain fetch: progress then only at the end.
 */

/** Bytes of the request body sent so far, of `total`. */
export type UploadProgressListener = (loaded: number, total: number) => void;

/** A fetch that also reports upload progress. */
export type UploadFetch = (url: string, init: RequestInit, onProgress: UploadProgressListener) => Promise<Response>;

/** The part of XMLHttpRequest used here (tests pass a fake). */
export interface XhrLike {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  getAllResponseHeaders(): string;
  send(body?: XMLHttpRequestBodyInit | null): void;
  abort(): void;
  responseType: XMLHttpRequestResponseType;
  readonly response: unknown;
  readonly status: number;
  readonly statusText: string;
  readonly upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}

/** Statuses whose Response may not carry a body. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function responseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      // A header a Headers object refuses is of no use to us either.
    }
  }
  return headers;
}

/** The same failure fetch gives, so the client's error handling does not care which ran. */
const abortError = (signal: AbortSignal | null | undefined) => signal?.reason ?? new DOMException('The upload was aborted.', 'AbortError');

export function xhrUploadFetch(createXhr: () => XhrLike): UploadFetch {
  return (url, init, onProgress) =>
    new Promise<Response>((resolve, reject) => {
      const signal = init.signal;
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      const xhr = createXhr();
      const stop = () => xhr.abort();
      const settle = () => signal?.removeEventListener('abort', stop);
      xhr.open(init.method ?? 'GET', url);
      new Headers(init.headers).forEach((value, name) => xhr.setRequestHeader(name, value));
      xhr.responseType = 'blob';
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded, event.total);
      };
      xhr.onload = () => {
        settle();
        const status = xhr.status;
        try {
          resolve(new Response(NULL_BODY_STATUSES.has(status) ? null : (xhr.response as Blob | null), { status, statusText: xhr.statusText, headers: responseHeaders(xhr.getAllResponseHeaders()) }));
        } catch (error) {
          reject(error);
        }
      };
      // Like fetch: no answer at all is a TypeError, an abort is the signal's reason.
      xhr.onerror = () => {
        settle();
        reject(new TypeError('Network request failed'));
      };
      xhr.onabort = () => {
        settle();
        reject(abortError(signal));
      };
      signal?.addEventListener('abort', stop, { once: true });
      xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
    });
}

/** Plain fetch: the whole body is "sent" once the answer is in. */
export function fetchUploadFetch(fetcher: typeof fetch): UploadFetch {
  return async (url, init, onProgress) => {
    const response = await fetcher(url, init);
    onProgress(1, 1);
    return response;
  };
}

/** XMLHttpRequest where the runtime has one, else `fetcher`. */
export function defaultUploadFetch(fetcher: typeof fetch): UploadFetch {
  const Xhr = (globalThis as { XMLHttpRequest?: new () => XhrLike }).XMLHttpRequest;
  return Xhr ? xhrUploadFetch(() => new Xhr()) : fetchUploadFetch(fetcher);
}
