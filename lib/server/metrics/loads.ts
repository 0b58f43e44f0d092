import 'server-only';
import type { RangeLoad } from '../../batch-api';
import type { Batch } from '../../contract';
import { metrics, type GateReading } from './registry';

/** Reads `gate` into the concurrency gauges until the returned function is called. */
export function trackConcurrency(gate: GateReading): () => void {
  const { gates } = metrics();
  gates.add(gate);
  return () => void gates.delete(gate);
}

/**
 * The chunks of `load`, counted: started, then finished, failed or cancelled (the browser left: `signal`
 * aborted, or the chunks given up before the end), the batches given out, and its adaptive limit in the
 * concurrency gauges while it runs.
 */
export async function* countedChunks(load: RangeLoad, signal: AbortSignal): AsyncGenerator<Batch[]> {
  const m = metrics();
  m.loadsStarted.inc();
  const untrack = trackConcurrency(() => load.concurrency);
  let end = m.loadsCancelled;
  try {
    for await (const chunk of load.chunks()) {
      m.batchesStreamed.inc(chunk.length);
      yield chunk;
    }
    end = m.loadsFinished;
  } catch (error) {
    if (!signal.aborted) end = m.loadsFailed;
    throw error;
  } finally {
    untrack();
    end.inc();
  }
}
