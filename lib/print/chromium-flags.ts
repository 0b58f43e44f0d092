/**
 * Chromium's switches where it runs headless with no display and must reach nothing on its own (STACK.md): the
 * server's PDF printing, the tests and the benches.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
