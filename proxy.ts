import { NextResponse, type NextRequest } from 'next/server';
import { PAGE_SEARCH_HEADER, sessionCookieName } from './lib/server/auth/session-rules';

/**
 * A fresh nonce and Content-Security-Policy on every request. Next.js reads the nonce from the request's
 * CSP header and puts it on its own scripts, so no script needs 'unsafe-inline' (or 'unsafe-eval' outside dev).
 */
/** Pages that need a session: without a session cookie (`__Host-tsb_session` over https), a real 307 to sign-in (validity and role are checked by the page). */
const PROTECTED = /^\/(batches|account|admin)(\/|$)/;

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (pathname === '/') return NextResponse.redirect(new URL('/batches', request.url), 307);
  if (PROTECTED.test(pathname) && !request.cookies.has(sessionCookieName(request))) {
    const signIn = new URL('/sign-in', request.url);
    signIn.searchParams.set('next', pathname + search);
    return NextResponse.redirect(signIn, 307);
  }

  const nonce = btoa(crypto.randomUUID());
  const dev = process.env.NODE_ENV === 'development';
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    // React and charts set style attributes; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  // The page's query for layouts, which Next hands no searchParams (the organisation's 403 is decided there).
  requestHeaders.set(PAGE_SEARCH_HEADER, search);
  requestHeaders.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', csp);
  return response;
}

export const config = {
  // Everything but the real static paths (anchored: `/icon.svgx` or `/_next/staticx` is a 404 page, which
  // needs its nonce like any page) and the API (a fixed CSP from next.config.mjs, no per-request work).
  matcher: [{ source: '/((?!_next/static/|_next/image$|icon\\.svg$|api/).*)' }],
};
