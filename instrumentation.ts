export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { validateConfigOrExit } = await import('./lib/server/startup');
  validateConfigOrExit();
  const { answerUnroutableMethods } = await import('./lib/server/unroutable-methods');
  answerUnroutableMethods();
}
