export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // First: every request from now on carries its socket's address (the sign-in limits count by it).
  const { installPeerAddressHook } = await import('./lib/server/peer-address');
  installPeerAddressHook();
  const { validateConfigOrExit } = await import('./lib/server/startup');
  validateConfigOrExit();
  const { answerUnroutableMethods } = await import('./lib/server/unroutable-methods');
  answerUnroutableMethods();
}
