import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAppSelector } from '../../app/hooks.ts';
import { useMeQuery } from '../auth/authApi.ts';
import type { LogFilters } from './logFilters.ts';
import { filtersKey, onlyTypedFieldsChanged, queryFromView, viewFromQuery, type LogView, type ViewRules } from './logView.ts';

export const FOREIGN_LINK_TEXT = 'This link names a server you are not a member of, so your current server is shown.';

/** Typing waits this long before it reaches the address (and the list's request). */
export const TYPING_SETTLE_MS = 300;

/**
 * The server a log screen shows: the one its address names when the user is a member of it (the shell selects
 * it too), else the current one. Null while the user's servers load to decide.
 */
function useLinkedServer(linked: string | null) {
  const session = useAppSelector((s) => s.session);
  const needsList = linked !== null && linked !== session.serverId;
  const { data: me, isError } = useMeQuery(undefined, { skip: !needsList });
  if (!needsList) return { serverId: session.serverId, serverName: session.serverName, foreign: false };
  const member = me?.servers.find((s) => s.id === linked);
  if (member) return { serverId: member.id, serverName: member.name, foreign: false };
  if (!me && !isError) return { serverId: null, serverName: null, foreign: false };
  return { serverId: session.serverId, serverName: session.serverName, foreign: true };
}

/**
 * The log screens' state lives in the address (server, filters, page, page size, live, `log`): the address is
 * the one source of truth, so a copied link opens the same view and back/forward step through views. A
 * deliberate change (a select, a date, a page, Live) adds a history entry; typed text reaches the address once
 * it settles and replaces the entry, so back does not replay every letter.
 */
export function useLogView(rules: ViewRules) {
  const { sizes, defaultSize, absentSize, liveAllowed } = rules;
  const stableRules = useMemo<ViewRules>(() => ({ sizes, defaultSize, liveAllowed, ...(absentSize === undefined ? {} : { absentSize }) }), [sizes, defaultSize, absentSize, liveAllowed]);
  const [params, setParams] = useSearchParams();
  const { serverId, serverName, foreign } = useLinkedServer(params.get('serverId'));
  const view = useMemo(() => viewFromQuery(params, stableRules), [params, stableRules]);

  // The form's values run ahead of the address while a person types.
  const [draft, setDraftState] = useState<LogFilters>(view.filters);
  const draftRef = useRef(draft);
  const setDraft = (next: LogFilters) => {
    draftRef.current = next;
    setDraftState(next);
  };
  const pending = useRef<number | undefined>(undefined);
  // The filters this screen last wrote: their arrival in the address must not overwrite newer typing.
  const written = useRef<string | null>(null);
  const serverRef = useRef(serverId);
  serverRef.current = serverId;

  const commit = useCallback(
    (change: Partial<LogView>, replace: boolean) => {
      const server = serverRef.current;
      if (!server) return;
      setParams(
        (prev) => {
          const current = viewFromQuery(prev, stableRules);
          const next = { ...current, ...change };
          if (filtersKey(next.filters) !== filtersKey(current.filters)) written.current = filtersKey(next.filters);
          return queryFromView(server, next, stableRules);
        },
        { replace },
      );
    },
    [setParams, stableRules],
  );

  // The address changed under the form (back, forward, a link, a saved search): the form follows it.
  const urlKey = filtersKey(view.filters);
  const urlFilters = useRef(view.filters);
  urlFilters.current = view.filters;
  useEffect(() => {
    if (written.current === urlKey) {
      written.current = null;
      return;
    }
    written.current = null;
    window.clearTimeout(pending.current);
    draftRef.current = urlFilters.current;
    setDraftState(urlFilters.current);
  }, [urlKey]);

  useEffect(() => () => window.clearTimeout(pending.current), []);

  // One address per view: a bare /logs gets its server, defaults drop out, a server the user is not a member
  // of gives way to the current one.
  const canonical = serverId ? queryFromView(serverId, view, stableRules).toString() : null;
  const [foreignLink, setForeignLink] = useState(false);
  useEffect(() => {
    if (canonical === null || canonical === params.toString()) return;
    if (foreign) setForeignLink(true);
    setParams(canonical, { replace: true });
  }, [canonical, params, foreign, setParams]);

  const setFilters = useCallback(
    (next: LogFilters) => {
      window.clearTimeout(pending.current);
      const typed = onlyTypedFieldsChanged(draftRef.current, next);
      setDraft(next);
      const change = { filters: next, page: 1, log: null };
      if (!typed) commit(change, false);
      else if (filtersKey(next) !== filtersKey(urlFilters.current)) pending.current = window.setTimeout(() => commit(change, true), TYPING_SETTLE_MS);
    },
    [commit],
  );

  /** A deliberate change of every field at once (a saved search): a history entry at once. */
  const applyFilters = useCallback(
    (next: LogFilters) => {
      window.clearTimeout(pending.current);
      setDraft(next);
      commit({ filters: next, page: 1, log: null }, false);
    },
    [commit],
  );

  return {
    serverId,
    serverName,
    /** The address named a server the user is not a member of; the current server is shown instead. */
    foreignLink,
    view,
    /** What the form shows (typing included). */
    filters: draft,
    setFilters,
    applyFilters,
    /** What the list shows: the address's filters. */
    settledFilters: view.filters,
    page: view.page,
    setPage: useCallback((page: number) => commit({ page }, false), [commit]),
    /** The page returning to 1 by itself (the stored set changed), not a step back can undo. */
    resetPage: useCallback(() => commit({ page: 1 }, true), [commit]),
    pageSize: view.pageSize,
    setPageSize: useCallback((pageSize: number) => commit({ pageSize, page: 1 }, false), [commit]),
    setLive: useCallback((live: boolean) => commit({ live }, false), [commit]),
    setLog: useCallback((log: string | null) => commit({ log }, false), [commit]),
  };
}
