import { DASH, safeHttpUrl } from './format';

/** A real link only for http(s); anything else is inert text. `tabbable: false` leaves it out of the Tab order. */
export function AnalysisLink({ link, tabbable = true }: { link: string | null; tabbable?: boolean }) {
  const href = safeHttpUrl(link);
  if (href) {
    return (
      <a href={href} target="_blank" rel="noopener noreferrer" tabIndex={tabbable ? undefined : -1}>
        Open analysis
      </a>
    );
  }
  return link ? <span title="Not a web link: shown as text">{link}</span> : <>{DASH}</>;
}
