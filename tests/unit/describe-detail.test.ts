import { describe, expect, it } from 'vitest';
import { describeDetail } from '@/lib/batch-api/errors';

describe('describeDetail: the service detail may be a string or an object (spec 7)', () => {
  it('keeps a string', () => {
    expect(describeDetail({ detail: 'start_date: bad' })).toBe('start_date: bad');
  });

  it('flattens a validation list, naming the field', () => {
    const body = { detail: [{ loc: ['query', 'start_date'], msg: 'invalid datetime', type: 'x' }, { loc: ['body'], msg: 'oops' }] };
    expect(describeDetail(body)).toBe('start_date: invalid datetime; oops');
  });

  it('serializes any other object and ignores bodies without detail', () => {
    expect(describeDetail({ detail: { reason: 'x' } })).toBe('{"reason":"x"}');
    expect(describeDetail({ message: 'x' })).toBeUndefined();
    expect(describeDetail('text')).toBeUndefined();
    expect(describeDetail(null)).toBeUndefined();
  });
});
