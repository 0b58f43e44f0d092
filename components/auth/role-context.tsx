'use client';

import { createContext, useContext, type ReactNode } from 'react';

export type PageRole = 'viewer' | 'editor' | 'admin';

const RoleContext = createContext<PageRole>('viewer');

/** The person's role in the page's organisation, for controls to hide or disable what it does not allow (the server refuses it anyway). */
export function RoleProvider({ role, children }: { role: PageRole; children: ReactNode }) {
  return <RoleContext.Provider value={role}>{children}</RoleContext.Provider>;
}

/** Whether the person may do what needs `needed`, and their role (for the reason shown when not). */
export function useRole(needed: PageRole = 'viewer'): { role: PageRole; allowed: boolean } {
  const role = useContext(RoleContext);
  const order: PageRole[] = ['viewer', 'editor', 'admin'];
  return { role, allowed: order.indexOf(role) >= order.indexOf(needed) };
}
