import { describe, expect, it } from 'vitest';
import { defaultViewTarget, isBare, openedAsDefault, viewKeys, viewQueryProblem } from '@/lib/contract/views';
import { ViewCreateSchema } from '@/lib/contract/schemas';
import { EXPLORER_KEYS } from '@/lib/explorer/url-state';

describe('a saved view’s query', () => {
  it('accepts every parameter the explorer’s schema has, read from the schema itself', () => {
    const keys = [...EXPLORER_KEYS];
    expect([...viewKeys()]).toEqual(keys);
    expect(viewQueryProblem(keys.map((k) => `${k}=x`).join('&'))).toBeNull();
    expect(viewQueryProblem('')).toBeNull();
    expect(viewQueryProblem('crop=Lettuce&utm_source=mail')).toBe('the explorer has no parameter "utm_source"');
  });

  it('drops a leading ? and keeps the rest as given', () => {
    expect(ViewCreateSchema.parse({ name: ' Lettuce ', query: '?crop=Lettuce&tz=Europe/Amsterdam' })).toEqual({
      name: 'Lettuce',
      query: 'crop=Lettuce&tz=Europe/Amsterdam',
    });
  });
});

describe('the default view', () => {
  const at = (query: string) => new URLSearchParams(query);

  it('opens for a bare /batches only, as the view says, with the one-shot opened=default', () => {
    expect(defaultViewTarget('crop=Lettuce&warn=1', at(''))).toBe('/batches?crop=Lettuce&warn=1&opened=default');
    expect(defaultViewTarget('from=now-90d&to=now&crop=Lettuce&tz=UTC', at(''))).toBe(
      '/batches?from=now-90d&to=now&crop=Lettuce&tz=UTC&opened=default',
    );
    expect(defaultViewTarget('', at(''))).toBe('/batches?opened=default');
  });

  it('a URL naming only its organisation is a bare page: that organisation’s default view opens, and the address keeps naming it', () => {
    expect(isBare(at('org=acme'))).toBe(true);
    expect(isBare(at('org=acme&tz=UTC'))).toBe(false);
    expect(defaultViewTarget('crop=Lettuce', at('org=acme'))).toBe('/batches?crop=Lettuce&opened=default&org=acme');
    const target = new URL(defaultViewTarget('crop=Lettuce', at('org=acme'))!, 'http://x').searchParams;
    expect(openedAsDefault('crop=Lettuce', target)).toBe(true);
  });

  it('never opens over a URL of its own: the zone alone (All time of older links) included', () => {
    expect(isBare(at(''))).toBe(true);
    for (const query of [
      'tz=UTC',
      'from=all&to=now&tz=Europe/Berlin',
      'warn=1',
      'from=2026-01-01&tz=UTC',
      'opened=default',
      'utm_source=mail',
    ]) {
      expect(isBare(at(query)), query).toBe(false);
      expect(defaultViewTarget('crop=Lettuce', at(query)), query).toBeNull();
    }
  });

  it('names the view only where its redirect led, never a link naming opened on its own', () => {
    const view = 'from=now-90d&to=now&crop=Tomato&tz=Europe/Berlin';
    const target = new URL(defaultViewTarget(view, at(''))!, 'http://x').searchParams;
    expect(openedAsDefault(view, target)).toBe(true);
    expect(openedAsDefault(view, at(view))).toBe(false);
    expect(openedAsDefault(view, at('crop=Lettuce&opened=default'))).toBe(false);
    expect(openedAsDefault('crop=Lettuce', target)).toBe(false);
    expect(openedAsDefault(view, at(`${view}&opened=default&opened=default`))).toBe(false);
  });
});
