import { describe, expect, it } from 'vitest';
import { defaultViewTarget, holdsViewState, viewKeys, viewQueryProblem } from '@/lib/contract/views';
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
    expect(ViewCreateSchema.parse({ name: ' Lettuce ', query: '?crop=Lettuce&tz=Europe/Amsterdam' })).toEqual({ name: 'Lettuce', query: 'crop=Lettuce&tz=Europe/Amsterdam' });
  });
});

describe('the default view', () => {
  const at = (query: string) => new URLSearchParams(query);

  it('opens for a URL with nothing but the zone, keeping the viewer’s zone when the view names none', () => {
    expect(defaultViewTarget('crop=Lettuce&warn=1', at(''))).toBe('/batches?crop=Lettuce&warn=1');
    expect(defaultViewTarget('crop=Lettuce', at('tz=Europe/Amsterdam'))).toBe('/batches?crop=Lettuce&tz=Europe/Amsterdam');
    expect(defaultViewTarget('crop=Lettuce&tz=UTC', at('tz=Europe/Amsterdam'))).toBe('/batches?crop=Lettuce&tz=UTC');
  });

  it('a URL naming only its organisation is a bare page: that organisation’s default view opens, and the address keeps naming it', () => {
    expect(holdsViewState('org=acme')).toBe(false);
    expect(holdsViewState('org=acme&tz=UTC')).toBe(false);
    const target = defaultViewTarget('crop=Lettuce', at('org=acme'));
    expect(new URL(target!, 'http://x').searchParams.get('org')).toBe('acme');
    expect(new URL(target!, 'http://x').searchParams.get('crop')).toBe('Lettuce');
  });

  it('never opens over a URL with state of its own', () => {
    expect(holdsViewState('tz=UTC')).toBe(false);
    expect(defaultViewTarget('crop=Lettuce', at('warn=1'))).toBeNull();
    expect(defaultViewTarget('crop=Lettuce', at('from=2026-01-01&tz=UTC'))).toBeNull();
  });

  it('never sends the page to itself: a view without state of its own opens once at most', () => {
    expect(defaultViewTarget('', at(''))).toBeNull();
    expect(defaultViewTarget('', at('tz=UTC'))).toBeNull();
    const first = defaultViewTarget('tz=UTC', at('tz=Europe/Amsterdam'));
    expect(first).toBe('/batches?tz=UTC');
    expect(defaultViewTarget('tz=UTC', new URL(first!, 'http://x').searchParams)).toBeNull();
  });
});
