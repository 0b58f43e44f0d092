/**
 * The sandbox's request counters, in a module of their own so that the server (which counts) and the
 * control routes (which report and reset) both depend on it instead of on each other.
 */
export type SandboxStats = {
  authRequests: number;
  /** Successful token grants per organisation id. */
  tokensIssuedByOrg: Record<string, number>;
  batchRequests: number;
  faultsServed: number;
};

export function emptyStats(): SandboxStats {
  return { authRequests: 0, tokensIssuedByOrg: {}, batchRequests: 0, faultsServed: 0 };
}
