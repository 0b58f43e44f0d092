import 'server-only';

/**
 * A segment of the request's path (-1 the last, -2 the one before), decoded. Read here rather than from Next's
 * params: the route wrapper takes a plain Request, as tests call it. A segment that does not decode is
 * returned as it is, and no store finds anything by it.
 */
export function pathSegment(request: Request, at: number): string {
  const segment = new URL(request.url).pathname.split('/').at(at) ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
