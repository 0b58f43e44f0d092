import type { Targets } from '../contract';

/**
 * Published legal minimum germination of vegetable seed: the US Federal Seed Act regulations,
 * 7 CFR § 201.31 "Minimum germination standards for vegetable seeds in interstate commerce".
 * They are floors for seed offered for sale, measured in a laboratory germination test: not a commercial
 * specification, and not a target for usable seedlings in a tray. Crops the regulation does not list
 * (flowers such as petunia, most herbs) get no figure here and keep the general target. The panel names the
 * source in the reader's language (`explorer.targets.source`).
 *
 * Names as the regulation lists them (lower case), each with its minimum germination in percent.
 */
const STANDARDS: readonly (readonly [string, number])[] = [
  ['artichoke', 60],
  ['asparagus', 70],
  ['bean', 70],
  ['lima bean', 70],
  ['runner bean', 75],
  ['beet', 65],
  ['broadbean', 75],
  ['broad bean', 75],
  ['broccoli', 75],
  ['brussels sprouts', 70],
  ['burdock', 60],
  ['cabbage', 75],
  ['cardoon', 60],
  ['carrot', 55],
  ['cauliflower', 75],
  ['celeriac', 55],
  ['celery', 55],
  ['chard', 65],
  ['swiss chard', 65],
  ['chicory', 65],
  ['chinese cabbage', 75],
  ['chives', 50],
  ['citron', 65],
  ['collards', 80],
  ['sweet corn', 75],
  ['corn salad', 70],
  ['cornsalad', 70],
  ['cowpea', 75],
  ['cress', 75],
  ['upland cress', 60],
  ['watercress', 40],
  ['cucumber', 80],
  ['dandelion', 60],
  ['eggplant', 60],
  ['endive', 70],
  ['kale', 75],
  ['kohlrabi', 75],
  ['leek', 60],
  ['lettuce', 80],
  ['muskmelon', 75],
  ['melon', 75],
  ['mustard', 75],
  ['okra', 50],
  ['onion', 70],
  ['welsh onion', 70],
  ['parsley', 60],
  ['parsnip', 60],
  ['pea', 80],
  ['pepper', 55],
  ['pumpkin', 75],
  ['radish', 75],
  ['rhubarb', 60],
  ['rutabaga', 75],
  ['salsify', 75],
  ['sorrel', 65],
  ['soybean', 75],
  ['spinach', 60],
  ['new zealand spinach', 40],
  ['squash', 75],
  ['tomato', 75],
  ['husk tomato', 50],
  ['turnip', 80],
  ['watermelon', 70],
];

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * The regulation's minimum for a crop as the organisation names it, or null. A standard applies when all its
 * words appear in the crop's name in order ("Bell pepper" is pepper, "Lettuce Batavia" is lettuce); the
 * longest match wins ("New Zealand spinach" is 40 %, not spinach's 60 %).
 */
export function legalMinimum(crop: string): { name: string; germination: number } | null {
  const have = words(crop);
  let best: { name: string; germination: number } | null = null;
  for (const [name, germination] of STANDARDS) {
    const want = name.split(' ');
    const at = have.findIndex((_, i) => want.every((w, j) => have[i + j] === w));
    if (at >= 0 && (!best || want.length > best.name.split(' ').length)) best = { name, germination };
  }
  return best;
}

/**
 * `targets` with each listed crop's germination target set to its legal minimum; the crops without a standard,
 * the usable targets, the CV thresholds and the general targets are left as they are.
 */
export function withLegalMinimums(
  targets: Targets,
  crops: readonly string[],
): { targets: Targets; applied: string[]; unlisted: string[] } {
  const next: Targets = { general: { ...targets.general }, crops: { ...targets.crops } };
  const applied: string[] = [];
  const unlisted: string[] = [];
  for (const crop of crops) {
    const standard = legalMinimum(crop);
    if (!standard) {
      unlisted.push(crop);
      continue;
    }
    const own = next.crops[crop];
    next.crops[crop] = { germination: standard.germination, usable: own?.usable ?? null, cv: own?.cv ?? null };
    applied.push(crop);
  }
  return { targets: next, applied, unlisted };
}
