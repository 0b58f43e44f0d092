import { describe, expect, it } from 'vitest';
import { describeDetail } from '@/lib/batch-api/errors';

describe('describeDetail: the service detail may be a string, an object or a list (docs/batch-data-service.md#errors)', () => {
  it('keeps a string, and reads no field out of it', () => {
    expect(describeDetail({ detail: 'start_date: bad' })).toEqual({ text: 'start_date: bad' });
  });

  it('flattens a validation list, naming the field from its loc', () => {
    const body = {
      detail: [
        { loc: ['query', 'start_date'], msg: 'invalid datetime', type: 'x' },
        { loc: ['body'], msg: 'oops' },
      ],
    };
    expect(describeDetail(body)).toEqual({ text: 'start_date: invalid datetime; oops', field: 'start_date' });
  });

  it('takes the first located item as the field, and a single located object like a list of one', () => {
    const body = { detail: [{ msg: 'something' }, { loc: ['query', 'end_date'], msg: 'too late' }] };
    expect(describeDetail(body)).toEqual({ text: 'something; end_date: too late', field: 'end_date' });
    expect(describeDetail({ detail: { loc: ['body', 'filters', 0], msg: 'bad' } })).toEqual({
      text: 'filters.0: bad',
      field: 'filters.0',
    });
  });

  it('serializes any other object and ignores bodies without detail', () => {
    expect(describeDetail({ detail: { reason: 'x' } })).toEqual({ text: '{"reason":"x"}' });
    expect(describeDetail({ message: 'x' })).toBeUndefined();
    expect(describeDetail({ detail: null })).toBeUndefined();
    expect(describeDetail('text')).toBeUndefined();
    expect(describeDetail(null)).toBeUndefined();
  });
});

describe('describeDetail: object-shaped details frameworks answer', () => {
  it('reads the message and the field of one object', () => {
    expect(describeDetail({ detail: { field: 'end_date', message: 'must not be in the future' } })).toEqual({
      text: 'end_date: must not be in the future',
      field: 'end_date',
    });
    expect(describeDetail({ detail: { error: 'rate limited' } })).toEqual({ text: 'rate limited' });
    expect(describeDetail({ detail: [{ param: 'start_date', msg: 'bad' }, 'and a plain sentence'] })).toEqual({
      text: 'start_date: bad; and a plain sentence',
      field: 'start_date',
    });
  });

  it('keeps what reaches people to one sentence of bounded length', () => {
    const { text } = describeDetail({ detail: 'x'.repeat(5000) })!;
    expect(text.length).toBeLessThanOrEqual(240);
    expect(text.endsWith('…')).toBe(true);
  });
});

describe('describeDetail: the shapes other frameworks answer', () => {
  it('a field map, a bare code, an empty message: each a readable sentence naming the field', () => {
    expect(describeDetail({ detail: { start_date: ['Enter a valid date/time.'] } })).toEqual({
      text: 'start_date: Enter a valid date/time.',
      field: 'start_date',
    });
    expect(describeDetail({ detail: { start_date: ['too early'], end_date: ['too late', 'and odd'] } })).toEqual({
      text: 'start_date: too early; end_date: too late and odd',
      field: 'start_date',
    });
    expect(describeDetail({ detail: { code: 'rate_limited' } })).toEqual({ text: 'rate_limited' });
    expect(describeDetail({ detail: [{ loc: ['query', 'end_date'], message: '' }] })).toEqual({
      text: 'end_date: refused',
      field: 'end_date',
    });
  });
});
