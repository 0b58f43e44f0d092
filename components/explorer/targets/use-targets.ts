'use client';

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef } from 'react';
import { DEFAULT_TARGETS, formatTargetsParam, sameTargets, type Targets, type TargetSettings } from '@/lib/contract';
import type { ApiFailure } from '@/lib/explorer/api-failure';
import { fetchTargets, saveTargets } from '@/lib/explorer/targets-api';
import { readState, type ExplorerState } from '@/lib/explorer/url-state';
import { targetsIn, urlTargets } from '@/lib/explorer/targets/view-targets';

const KEY = ['settings', 'targets'] as const;

/** The organisation's saved targets: one query, started early with the batches (early-load.ts) and read here. */
export function targetsQueryOptions() {
  return queryOptions<TargetSettings, ApiFailure>({
    queryKey: KEY,
    queryFn: ({ signal }) => fetchTargets(signal),
    // A colleague may change them: look again when the page is shown again, not more often.
    staleTime: 30_000,
    retry: false,
  });
}

type Update = (patch: Partial<ExplorerState>, mode?: 'push' | 'replace') => void;

/**
 * The targets every batch is judged against. The organisation's saved targets, unless the URL carries other
 * ones (`targets=`: edited here and not saved yet, or sent by a colleague whose draft differs), so a link
 * shows the same judgments to whoever opens it. Saving makes the URL's targets the organisation's.
 */
export function useTargets(state: Pick<ExplorerState, 'targets' | 'target'>, update: Update) {
  const client = useQueryClient();
  const saved = useQuery(targetsQueryOptions());
  const base = saved.data?.targets ?? DEFAULT_TARGETS;
  // Kept while the URL's targets are the same text: 100,000 rows are judged, sorted and drawn again on a new object.
  const fromUrl = useMemo(() => urlTargets(state.targets), [state.targets]);
  const targets = useMemo(() => targetsIn(fromUrl, state.target, base), [fromUrl, state.target, base]);
  const version = saved.data?.updatedAt ?? null;
  // The saved version a draft begun here started from: its save replaces that version only, so a colleague's save
  // in between is a conflict even when it has been read since (a draft from a link: the version last read).
  const draftBase = useRef<string | null | undefined>(undefined);

  /**
   * Judges by `edit(targets in use)` from now on; they go into the URL only where they differ from the saved
   * ones. The edit applies to the address bar's targets, not this render's: two quick edits both count.
   */
  const change = useCallback(
    (edit: (current: Targets) => Targets) => {
      const now = readState(new URLSearchParams(window.location.search)).state;
      if (now.targets === undefined && now.target === undefined) draftBase.current = version;
      const next = edit(targetsIn(urlTargets(now.targets), now.target, base));
      update({ targets: sameTargets(next, base) ? undefined : formatTargetsParam(next), target: undefined });
    },
    [update, base, version],
  );
  const discard = useCallback(() => {
    draftBase.current = undefined;
    update({ targets: undefined, target: undefined });
  }, [update]);
  const { refetch } = saved;

  // A save names the version it replaces, so that a colleague's save in between is refused (409), not undone.
  const save = useMutation<TargetSettings, ApiFailure, { targets: Targets; over: string | null }>({
    mutationFn: ({ targets: next, over }) => saveTargets(next, over),
    onSuccess: (settings) => {
      client.setQueryData(KEY, settings);
      void client.invalidateQueries({ queryKey: [...KEY, 'history'] });
      draftBase.current = undefined;
      update({ targets: undefined, target: undefined });
    },
    // Refused because a colleague saved since: read theirs, so the panel can say when and offer both ways out.
    onError: (error) => {
      if (error.status === 409) void refetch();
    },
  });
  const conflict = save.isError && save.error.status === 409;
  const { reset, mutate } = save;
  /** The colleague's targets replace the draft. */
  const reload = useCallback(() => {
    reset();
    discard();
    void refetch();
  }, [reset, discard, refetch]);

  return {
    targets,
    /** Batches can be judged: the saved targets are here (or could not be had), or the link brings its own. */
    ready: !saved.isPending || fromUrl !== null,
    /** What the organisation has saved (null until it has loaded, or when it could not be). */
    saved: saved.data ?? null,
    loadError: saved.error,
    /** The targets in use are not the saved ones (a draft, or a colleague's link). */
    unsaved: saved.isSuccess ? !sameTargets(targets, base) : fromUrl !== null || state.target !== undefined,
    change,
    discard,
    save,
    /** Makes the targets in use the organisation's, replacing the version the draft started from. */
    saveDraft: () => mutate({ targets, over: draftBase.current === undefined ? version : draftBase.current }),
    /** The organisation's targets read again, the draft dropped (after a restore, or to take a colleague's). */
    reload,
    /**
     * A colleague saved after the version this draft started from: `at` is when and `by` who (null while their
     * version is being read, or when it could not be). `reload` takes theirs and drops the draft; `keepMine` saves the draft
     * over their version (a save since is a conflict again, not undone).
     */
    conflict: conflict
      ? {
          at: saved.isFetching ? null : version,
          /** Who saved them, as people see them (null when not known: saved before people, or since removed). */
          by: saved.isFetching ? null : saved.data?.updatedBy?.name || saved.data?.updatedBy?.email || null,
          reading: saved.isFetching,
          reload,
          keepMine: () => {
            draftBase.current = version;
            mutate({ targets, over: version });
          },
        }
      : null,
  };
}
