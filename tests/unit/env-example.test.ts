import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EnvSchema } from '@/lib/server/config';
import { OTEL_EXAMPLE_VARIABLES } from '@/lib/server/tracing/setup';
import { ENV_NAMES } from '@/sandbox/config';

/** Set by `next dev` / `next start` themselves: .env.example mentions it but must not suggest setting it. */
const SET_BY_NEXT = ['NODE_ENV'];
const readByCode = [
  ...Object.keys(EnvSchema.shape).filter((name) => !SET_BY_NEXT.includes(name)),
  ...Object.values(ENV_NAMES),
  ...OTEL_EXAMPLE_VARIABLES,
];

const lines = readFileSync(fileURLToPath(new URL('../../.env.example', import.meta.url)), 'utf8').split('\n');
/** `NAME=value` lines (dotenv syntax, optional `export`); comments are not assignments. */
const assignments = lines.flatMap((line, index) => {
  const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/.exec(line);
  return match ? [{ name: match[1]!, value: match[2]!.trim(), index }] : [];
});
const listed = assignments.map((a) => a.name);

describe('.env.example', () => {
  it('lists every variable the app, the launcher and the sandbox read', () => {
    expect(readByCode.filter((name) => !listed.includes(name))).toEqual([]);
  });

  it('names no variable that nothing reads, and none twice', () => {
    expect(listed.filter((name) => !readByCode.includes(name))).toEqual([]);
    expect(listed.filter((name, i) => listed.indexOf(name) !== i)).toEqual([]);
  });

  it('explains each variable in a comment right above it', () => {
    const bare = assignments.filter((a) => !lines[a.index - 1]?.trim().startsWith('#')).map((a) => a.name);
    expect(bare).toEqual([]);
  });

  it('leaves the secrets blank', () => {
    const secrets = assignments.filter((a) => /SECRET/.test(a.name) && a.value !== '').map((a) => a.name);
    expect(secrets).toEqual([]);
  });
});
