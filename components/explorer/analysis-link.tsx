import { DASH, safeHttpUrl } from './format';

/** A real link only for http(s); anything else is inert text. */
export function AnalysisLink({ link }: { link: string | null }) {
  const href = safeHttpUrl(link);
  if (href) {
    return (
      <a href={href} target="_blank" rel="noopener noreferrer">
        Open analysis
      </a>
    );
  }
  return link ? <span title="Not a web link: shown as text">{link}</span> : <>{DASH}</>;
}
