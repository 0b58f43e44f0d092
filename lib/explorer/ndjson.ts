/** Longest stretch of parsing before the reader lets the page paint and respond (a long task is 50 ms). */
const SLICE_MS = 8;

const yieldToMain = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Reads newline-delimited text as it arrives, handing out each non-empty line, in short slices of work so
 * that a stream of 100,000 batches never blocks the main thread. A line may arrive split across chunks,
 * a character across bytes. Returns false when the body ended in the middle of a line.
 */
export async function readNdjson(body: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<boolean> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let slice = performance.now();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return (buffer + decoder.decode()).trim() === '';
      buffer += decoder.decode(value, { stream: true });
      let start = 0;
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n', start)) {
        const line = buffer.slice(start, end);
        start = end + 1;
        if (line.trim() !== '') onLine(line);
        if (performance.now() - slice > SLICE_MS) {
          await yieldToMain();
          slice = performance.now();
        }
      }
      buffer = buffer.slice(start);
    }
  } finally {
    reader.releaseLock();
  }
}
