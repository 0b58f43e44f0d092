import { describe, expect, it } from 'vitest';
import { describeDetail } from '@/lib/batch-api/errors';

describe('describeDetail: the service detail may be a string, an object or a list (docs/batch-data-service.md#errors)', () => {
  it('keeps a string, and reads no field out of it', () => {
    expect(describeDetail({ detail: 'start_date: bad' })).toEqual({ text: 'start_date: bad' });
  });

  it('flattens a validation list, naming the field from its loc', () => {
    const body = { detail: [{ loc: ['query', 'start_date'], msg: 'invalid datetime', type: 'x' }, { loc: ['body'], msg: 'oops' }] };
    expect(describeDetail(body)).toEqual({ text: 'start_date: invalid datetime; oops', field: 'start_date' });
  });

  it('takes the first located item as the field, and a single located object like a list of one', () => {
    const body = { detail: [{ msg: 'something' }, { loc: ['query', 'end_date'], msg: 'too late' }] };
    expect(describeDetail(body)).toEqual({ text: 'something; end_date: too late', field: 'end_date' });
    expect(describeDetail({ detail: { loc: ['body', 'filters', 0], msg: 'bad' } })).toEqual({ text: 'filters.0: bad', field: 'filters.0' });
  });

  it('serializes any other object and ignores bodies without detail', () => {
    expect(describeDetail({ detail: { reason: 'x' } })).toEqual({ text: '{"reason":"x"}' });
    expect(describeDetail({ message: 'x' })).toBeUndefined();
    expect(describeDetail({ detail: null })).toBeUndefined();
    expect(describeDetail('text')).toBeUndefined();
    expect(describeDetail(null)).toBeUndefined();
  });
});
