import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every stylesheet of the app and its components. */
function stylesheets(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return stylesheets(path);
    return e.name.endsWith('.css') ? [path] : [];
  });
}

/** The innermost rules of a stylesheet (those inside @media too), as selector and declarations. */
function rules(css: string): { selector: string; body: string }[] {
  const plain = css.replace(/\/\*[\s\S]*?\*\//g, '');
  return [...plain.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((m) => ({ selector: m[1]!.trim(), body: m[2]! }));
}

describe('scroll boxes', () => {
  // An absolutely positioned element (the .visually-hidden text of a table cell) whose containing block lies
  // outside the box that scrolls it is not clipped by it: it stretches the page from where its row would lie
  // unscrolled (thousands of pixels down a virtual table, sideways past a narrow screen).
  it('are positioned, so what they scroll stays inside them', () => {
    const files = [...stylesheets('app'), ...stylesheets('components')];
    expect(files.length).toBeGreaterThan(5);
    const unpositioned = files.flatMap((file) =>
      rules(readFileSync(file, 'utf8'))
        .filter(({ body }) => /(^|;|\s)overflow(-[xy])?\s*:\s*[^;]*\b(auto|scroll)\b/.test(body))
        .filter(({ body }) => !/(^|;|\s)position\s*:\s*(relative|absolute|fixed|sticky)\b/.test(body))
        .map(({ selector }) => `${file}: ${selector}`),
    );
    expect(unpositioned).toEqual([]);
  });
});
