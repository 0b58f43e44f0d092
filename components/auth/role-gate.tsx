'use client';

import { useId, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { useTranslations } from 'use-intl';
import styles from './role-gate.module.css';
import { useRole, type PageRole } from './role-context';

/** What a control does, for the sentence that says why the person's role does not allow it. */
export type GatedAction =
  'saveTargets' | 'restoreTargets' | 'shareView' | 'makeDefault' | 'changeShared' | 'scheduleReport';

/** What a refused control gets: announced as unavailable (yet focusable, so its reason can be read), doing nothing. */
export type GateProps = {
  'aria-disabled': true;
  'aria-describedby': string;
  title: string;
  onClick: (event: MouseEvent) => void;
  onKeyDown: (event: KeyboardEvent) => void;
};

const stop = (event: MouseEvent | KeyboardEvent) => {
  if ('key' in event && event.key !== 'Enter' && event.key !== ' ') return;
  event.preventDefault();
};

/**
 * A control the person's role may not use (the server would refuse it with 403 anyway): `children` gets the
 * props that make it unavailable, and the reason shows beside it on hover and on focus (and is its
 * description for screen readers). When the role allows it, `children` gets null and renders as usual.
 */
export function RoleGate({
  needed = 'editor',
  action,
  inline = false,
  children,
}: {
  needed?: PageRole;
  action: GatedAction;
  /** In a box that scrolls (a list): the reason opens as a line of its own on focus, not as a floating box the list would cut. */
  inline?: boolean;
  children: (gate: GateProps | null) => ReactNode;
}) {
  const { role, allowed } = useRole(needed);
  const t = useTranslations('people');
  const id = useId();
  if (allowed) return <>{children(null)}</>;
  const reason = t(`roleGate.${action}`, { needed: t(`roles.${needed}`), role: t(`roles.${role}`) });
  return (
    <span className={inline ? styles.inlineGate : styles.gate}>
      {children({ 'aria-disabled': true, 'aria-describedby': id, title: reason, onClick: stop, onKeyDown: stop })}
      <span role="tooltip" id={id} className={styles.reason}>
        {reason}
      </span>
    </span>
  );
}
