import { encodeStreamLine, type StreamLine } from '@/lib/contract';

/** Fakes of `/api/batches/stream` for the browser's loader: bodies cut anywhere, answers scripted in order. */

export const bytes = (text: string) => new TextEncoder().encode(text);

/** A body that hands out exactly these chunks, one read at a time. */
export function body(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const queue = chunks.map((c) => (typeof c === 'string' ? bytes(c) : c));
  return new ReadableStream({
    pull(controller) {
      const next = queue.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

/** The text of a stream: these lines, cut into chunks of `size` bytes (lines and characters split anywhere). */
export function chunked(lines: StreamLine[], size: number): Uint8Array[] {
  const all = bytes(lines.map(encodeStreamLine).join(''));
  const out: Uint8Array[] = [];
  for (let i = 0; i < all.length; i += size) out.push(all.slice(i, i + size));
  return out;
}

/** A fetch that answers each call with the next scripted answer, and records what was asked. */
export function scripted(...answers: ((signal: AbortSignal) => Response | Promise<Response>)[]) {
  const calls: { url: string; signal: AbortSignal }[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), signal: init!.signal! });
    const answer = answers.shift();
    if (!answer) throw new Error('no more answers scripted');
    return answer(init!.signal!);
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

export const ok = (chunks: Uint8Array[]) => () => new Response(body(chunks), { status: 200 });

/**
 * An answer whose body stays open until the test writes lines into it or ends it; aborting the request errors
 * the body, as a browser's fetch does.
 */
export function held() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const answer = (signal: AbortSignal) =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(c) {
          controller = c;
          signal.addEventListener('abort', () => c.error(signal.reason));
        },
      }),
    );
  return {
    answer,
    write: (line: StreamLine) => controller.enqueue(bytes(encodeStreamLine(line))),
    end: () => controller.close(),
  };
}

/** Resolves once `condition` holds for a value passed to the returned `notify` (no timers involved). */
export function waitFor<T>(condition: (value: T) => boolean) {
  let resolve!: (value: T) => void;
  const reached = new Promise<T>((r) => (resolve = r));
  return { reached, notify: (value: T) => (condition(value) ? resolve(value) : undefined) };
}
