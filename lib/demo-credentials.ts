/** The sandbox's demo organisation: shown on the sign-in page when the app runs on the bundled sandbox. */
export const DEMO_CREDENTIALS = { clientId: 'demo-client', clientSecret: 'demo-secret' } as const;
