import { storableTextProblem } from './storable-text';

/**
 * An organisation's QA targets: a general germination and usable-seedling target and a CV threshold, and per
 * crop any of them overriding the general one. A batch is judged against its own crop's target (an empty crop
 * target falls back to the general one; a batch with no crop recorded is judged by the general one). Rates
 * are floors (a batch below is short); the CV threshold is a ceiling (a batch above it is too uneven).
 */
export const TARGET_METRICS = ['germination', 'usable', 'cv'] as const;
export type TargetMetric = (typeof TARGET_METRICS)[number];
/** The targets a rate is held to from below ("below target"); the CV threshold is judged from above. */
export type RateTargetMetric = Exclude<TargetMetric, 'cv'>;

/** The longest crop name a target can be kept for (the service does not bound crop_type; our settings do). */
export const MAX_CROP_NAME = 100;
/** Crops a target set can name: far more than any organisation grows, small enough for a URL. */
export const MAX_CROP_TARGETS = 200;

/** Germination and usable targets and the CV threshold, in percent; null: none of its own (TargetPairSchema checks it). */
export type TargetPair = { germination: number | null; usable: number | null; cv: number | null };
export type Targets = { general: TargetPair; crops: Record<string, TargetPair> };
/** Who saved something last, as people see them. */
export type SavedBy = { email: string; name: string };
/** What `/api/settings/targets` answers: the organisation's targets, when they last changed (null: never saved) and by whom. */
export type TargetSettings = { targets: Targets; updatedAt: string | null; updatedBy: SavedBy | null };
/** One saved version of the targets, as `/api/settings/targets/history` lists them (newest first). */
export type TargetHistoryEntry = { id: string; savedAt: string; savedBy: SavedBy | null; targets: Targets };
/**
 * The body of a save. `expectedUpdatedAt` is the `updatedAt` the editor started from: when a colleague has
 * saved since, the save is refused (409) instead of silently undoing their change. Absent: save regardless.
 */
export type TargetSave = { targets: Targets; expectedUpdatedAt?: string | null };

/** A percent with at most two decimals (the only precision a target is kept in). */
export function hasTwoDecimalsAtMost(v: number): boolean {
  return Math.abs(Math.round(v * 100) - v * 100) < 1e-6;
}

const isPercent = (v: unknown) =>
  v === null || (typeof v === 'number' && v >= 0 && v <= 100 && hasTwoDecimalsAtMost(v));

/** Whether targets read from a link hold what TargetsSchema would keep (the browser's check: it carries no zod). */
export function validTargets(t: Targets): boolean {
  const pairs = [t.general, ...Object.values(t.crops)];
  const names = Object.keys(t.crops);
  return (
    names.length <= MAX_CROP_TARGETS &&
    names.every((n) => cropNameProblem(n) === null) &&
    pairs.every((p) => isPercent(p.germination) && isPercent(p.usable) && isPercent(p.cv))
  );
}

/** Why a crop name cannot be kept, or null. Checked on the record rather than its keys, so the issue names the crop. */
export function cropNameProblem(name: string): string | null {
  if (name.trim() === '') return 'a crop name must not be empty';
  if (name.trim() !== name) return 'a crop name must not start or end with spaces';
  const unstorable = storableTextProblem(name);
  if (unstorable) return `a crop name ${unstorable}`;
  if (name.length > MAX_CROP_NAME) return `a crop name must be at most ${MAX_CROP_NAME} characters`;
  return null;
}

/** Before an organisation saves any: 90 % germination for every crop (the dashboard's old single target), no usable target, no CV threshold. */
export const DEFAULT_TARGETS: Targets = { general: { germination: 90, usable: null, cv: null }, crops: {} };

/** The target a batch of `crop` (null: no crop recorded) is judged against, or null when there is none. */
export function targetFor(targets: Targets, crop: string | null, metric: TargetMetric): number | null {
  if (crop !== null) {
    const own = Object.hasOwn(targets.crops, crop) ? targets.crops[crop]![metric] : undefined;
    if (own !== undefined && own !== null) return own;
  }
  return targets.general[metric];
}

/** Sets a crop's pair as an own property whatever its name: `crops['__proto__'] = …` would set the prototype instead. */
export function putCrop(crops: Record<string, TargetPair>, name: string, pair: TargetPair): void {
  Object.defineProperty(crops, name, { value: pair, enumerable: true, writable: true, configurable: true });
}

/** The same targets without crops that set nothing of their own, with crops in a stable order (to compare two sets). */
export function normalTargets(targets: Targets): Targets {
  const crops: Targets['crops'] = {};
  // `?? null`: a pair built before the CV threshold existed (an old draft in memory) has no `cv` at all.
  const pair = (p: TargetPair): TargetPair => ({ germination: p.germination, usable: p.usable, cv: p.cv ?? null });
  for (const name of Object.keys(targets.crops).sort()) {
    const own = pair(targets.crops[name]!);
    if (own.germination !== null || own.usable !== null || own.cv !== null) putCrop(crops, name, own);
  }
  return { general: pair(targets.general), crops };
}

export function sameTargets(a: Targets, b: Targets): boolean {
  return JSON.stringify(normalTargets(a)) === JSON.stringify(normalTargets(b));
}

/*
 * Targets in a URL (`targets=`), when a link must carry judgments that differ from the saved ones:
 * `*:90/85;Lettuce:80/;Pepper:55//12` — entries joined by `;`, each `name:germination/usable` or
 * `name:germination/usable/cv` with any number empty for "none", `*` for the general pair. The CV field is
 * written only when a CV threshold is set, so links from before it existed read (and are written) as they
 * were. Crop names are percent-encoded (including `*`), so no name can be taken for a separator or for the
 * general pair.
 */
const GENERAL = '*';
const encodeName = (name: string) => encodeURIComponent(name).replace(/\*/g, '%2A');
const num = (v: number | null) => (v === null ? '' : String(v));

/** Crops whose names no target can be kept for (cropNameProblem) are left out: a lone surrogate would not even encode. */
export function formatTargetsParam(targets: Targets): string {
  const t = normalTargets(targets);
  const entry = (name: string, p: TargetPair) =>
    `${name}:${num(p.germination)}/${num(p.usable)}${p.cv === null ? '' : `/${num(p.cv)}`}`;
  const crops = Object.entries(t.crops).filter(([name]) => cropNameProblem(name) === null);
  return [entry(GENERAL, t.general), ...crops.map(([name, p]) => entry(encodeName(name), p))].join(';');
}

const ENTRY = /^([^:;]+):([0-9.]*)\/([0-9.]*)(?:\/([0-9.]*))?$/;

/** Reads `targets=`; null when the text is not a target set (a link mangled in transit): the saved targets apply. */
export function parseTargetsParam(text: string): Targets | null {
  if (text.length > 20_000) return null;
  let general: TargetPair | null = null;
  const crops: Record<string, TargetPair> = {};
  for (const part of text.split(';')) {
    const m = ENTRY.exec(part);
    if (!m) return null;
    const value = (s: string | undefined) => (s === undefined || s === '' ? null : Number(s));
    const pair = { germination: value(m[2]), usable: value(m[3]), cv: value(m[4]) };
    if (m[1] === GENERAL) general = pair;
    else {
      let name: string;
      try {
        name = decodeURIComponent(m[1]!);
      } catch {
        return null;
      }
      putCrop(crops, name, pair);
    }
  }
  if (!general) return null;
  const targets = { general, crops };
  return validTargets(targets) ? targets : null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A pair as our API sends it (a pair saved before the CV threshold existed may lack `cv`: none), or null. */
function pairOf(v: unknown): TargetPair | null {
  if (!isRecord(v)) return null;
  const pair = { germination: v.germination ?? null, usable: v.usable ?? null, cv: v.cv ?? null } as TargetPair;
  return isPercent(pair.germination) && isPercent(pair.usable) && isPercent(pair.cv) ? pair : null;
}

/** Our API's answer about the targets, read by the browser (TargetSettingsSchema is the server's), or null. */
export function readTargetSettings(v: unknown): TargetSettings | null {
  if (!isRecord(v) || !isRecord(v.targets) || !(v.updatedAt === null || typeof v.updatedAt === 'string')) return null;
  const general = pairOf(v.targets.general);
  const rawCrops = v.targets.crops ?? {};
  if (!general || !isRecord(rawCrops)) return null;
  const crops: Record<string, TargetPair> = {};
  for (const [name, raw] of Object.entries(rawCrops)) {
    const pair = pairOf(raw);
    if (!pair) return null;
    putCrop(crops, name, pair);
  }
  const targets = { general, crops };
  const updatedBy = savedByOf(v.updatedBy);
  return validTargets(targets) && updatedBy !== undefined ? { targets, updatedAt: v.updatedAt, updatedBy } : null;
}

/** Who saved, as our API sends it (null: nobody known), or undefined when it is of no such shape. */
export function savedByOf(v: unknown): SavedBy | null | undefined {
  if (v === null) return null;
  if (!isRecord(v) || typeof v.email !== 'string' || typeof v.name !== 'string') return undefined;
  return { email: v.email, name: v.name };
}
