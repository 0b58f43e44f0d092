import 'server-only';

/** Local wall-clock hour and minute of an instant in a zone (cached formatters: a delivery pass asks often). */
const formatters = new Map<string, Intl.DateTimeFormat>();
function localTime(ms: number, zone: string): { hour: number; minute: number } {
  let format = formatters.get(zone);
  if (!format)
    formatters.set(
      zone,
      (format = new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })),
    );
  const parts = format.formatToParts(ms);
  return {
    hour: Number(parts.find((p) => p.type === 'hour')!.value),
    minute: Number(parts.find((p) => p.type === 'minute')!.value),
  };
}

const QUARTER_MS = 15 * 60_000;

/**
 * When a digest that collects from `now` on goes out, in the recipient's zone: the next full hour (hourly), or
 * the next `hour`:00 (daily). Every zone's offset is a whole number of quarter hours, so the quarter hours
 * after `now` are the candidates; a daily hour a clock change skips that day goes out at the next one.
 */
export function nextDigestAt(now: number, zone: string, cadence: 'hourly' | 'daily', hour: number): Date {
  let t = Math.floor(now / QUARTER_MS) * QUARTER_MS + QUARTER_MS;
  for (let i = 0; i < 4 * 24 * 3; i++, t += QUARTER_MS) {
    const local = localTime(t, zone);
    if (local.minute === 0 && (cadence === 'hourly' || local.hour === hour)) return new Date(t);
  }
  return new Date(t);
}

/** A zone Intl knows (an account's own is checked when saved; this guards the organisation's default). */
export function knownZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
