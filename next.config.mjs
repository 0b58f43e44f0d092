import { API_CSP, FORWARDED_HTTPS, HSTS, SECURITY_HEADERS } from './lib/security-headers.mjs';

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // PGlite loads its WebAssembly and data files from its own package directory at run time: bundled, it
  // would look for them in .next and fail. (pg is on Next's own list of packages kept external.)
  // @node-rs/argon2 loads its prebuilt native module for the platform at run time.
  serverExternalPackages: ['@electric-sql/pglite', '@node-rs/argon2'],
  // forbidden() and app/forbidden.tsx: a page of an organisation the person is not a member of, or for a role
  // they do not have, answers 403.
  experimental: { authInterrupts: true },
  // Messages reach use-intl compiled ahead (lib/i18n/compiled.ts): its formatter without the ICU parser, as
  // next-intl's own precompile option does. Everywhere, so that the server's render and the browser's agree.
  turbopack: {
    resolveAlias: { 'use-intl/format-message': 'use-intl/format-message/format-only' },
  },
  async headers() {
    return [
      // Every answer, static assets, redirects and 404s included (pages get a per-request nonce CSP in proxy.ts).
      { source: '/:path*', headers: SECURITY_HEADERS },
      // Over https only: never on the plain-http demo, where it would have no effect but to mislead.
      {
        source: '/:path*',
        has: [{ type: 'header', key: 'x-forwarded-proto', value: FORWARDED_HTTPS }],
        headers: [{ key: 'Strict-Transport-Security', value: HSTS }],
      },
      // A fixed policy here spares every API call the proxy's per-request work (about a third of the
      // throughput of a page).
      { source: '/api/:path*', headers: [{ key: 'Content-Security-Policy', value: API_CSP }] },
    ];
  },
};

export default nextConfig;
