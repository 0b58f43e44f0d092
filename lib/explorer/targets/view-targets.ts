import { parseTargetsParam, type Targets } from '../../contract/targets';

/** The targets a view's state judges by: the URL's own, else the saved ones (a pre-targets link: its one germination target). */
export function targetsIn(fromUrl: Targets | null, target: number | undefined, base: Targets): Targets {
  if (fromUrl) return fromUrl;
  if (target !== undefined) return { ...base, general: { ...base.general, germination: target } };
  return base;
}

/** The targets of a URL's `targets=`, or null (absent or unreadable: the saved ones apply). */
export const urlTargets = (text: string | undefined): Targets | null => (text ? parseTargetsParam(text) : null);
