import { NO_CROP } from './rows';

/** How many crop colours the theme defines (`--crop-0` … in globals.css). */
export const CROP_COLOURS = 9;

/** A small stable hash of a crop's name: the colour slot it prefers. */
function preferredSlot(name: string): number {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return (h >>> 0) % CROP_COLOURS;
}

/**
 * The colour of each crop, the same in every chart, filter and view: each crop takes the slot its name
 * hashes to, or the next free one (crops taken in name order, so the same set of crops always gets the same
 * colours, and most crops keep theirs when the set changes). "No crop recorded" is grey. Beyond nine crops
 * colours repeat: the per-crop panels name their crop, and focus mode colours only the chosen ones.
 */
export function cropColours(crops: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<number>();
  for (const crop of [...crops].sort()) {
    if (crop === NO_CROP) {
      out.set(crop, 'var(--crop-none)');
      continue;
    }
    let slot = preferredSlot(crop);
    if (taken.size < CROP_COLOURS) while (taken.has(slot)) slot = (slot + 1) % CROP_COLOURS;
    taken.add(slot);
    out.set(crop, `var(--crop-${slot})`);
  }
  return out;
}
