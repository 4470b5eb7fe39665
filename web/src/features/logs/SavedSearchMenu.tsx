import { StarOutlined } from '@ant-design/icons';
import type { SavedSearch } from '@skald/contracts/api';
import { SAVED_SEARCH_LIMITS, SAVED_SEARCHES_FULL } from '@skald/contracts/api';
import { Alert, Button, Input } from 'antd';
import { useState, type FormEvent } from 'react';
import { errorText } from '../../app/errors.ts';
import { useToast } from '../../app/toast.tsx';
import { useMeQuery } from '../auth/authApi.ts';
import type { LogFilters } from './logFilters.ts';
import { filtersOfQuery, hasFilter, mayDelete, nameProblem, queryOfFilters, querySummary, SAVED_SEARCH_TEXT } from './savedSearchForm.ts';
import { useDeleteSavedSearchMutation, useSaveSearchMutation, useSavedSearchesQuery } from './savedSearchesApi.ts';

interface Props {
  serverId: string;
  /** The page's filters as the form shows them (what "Save current filters" keeps). */
  filters: LogFilters;
  /** Sets the page's filters (the same state the filter form and the address use). */
  onApply(next: LogFilters): void;
}

const PANEL_ID = 'saved-searches';

/**
 * The saved-search menu of /logs: a toggle beside the filters opens a panel to save the current filters
 * under a name, apply a saved search (it replaces every filter) and delete one (shown only to the member
 * who saved it and to the server's owner and admins, as the server decides). Shared by the whole team.
 */
export function SavedSearchMenu({ serverId, filters, onApply }: Props) {
  const [open, setOpen] = useState(false);
  const list = useSavedSearchesQuery(serverId, { skip: !open });
  const me = useMeQuery(undefined, { skip: !open });
  const role = me.data?.servers.find((server) => server.id === serverId)?.role;
  const count = list.data?.searches.length;
  return (
    <>
      <Button
        className="saved-searches-toggle"
        icon={<StarOutlined />}
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls={PANEL_ID}
        aria-label={SAVED_SEARCH_TEXT.menu}
      >
        <span className="saved-searches-label">{SAVED_SEARCH_TEXT.menu}</span>
      </Button>
      {open && (
        <section id={PANEL_ID} className="saved-searches-panel" aria-label={SAVED_SEARCH_TEXT.menu}>
          <SaveForm serverId={serverId} filters={filters} full={count !== undefined && count >= SAVED_SEARCH_LIMITS.maxPerServer} />
          {list.isError ? (
            <Alert type="error" title={SAVED_SEARCH_TEXT.loadFailed} showIcon />
          ) : list.data === undefined ? null : list.data.searches.length === 0 ? (
            <p className="muted saved-searches-empty">{SAVED_SEARCH_TEXT.empty}</p>
          ) : (
            <>
              <p className="muted saved-searches-count">
                {list.data.searches.length} / {SAVED_SEARCH_LIMITS.maxPerServer} saved
              </p>
              <ul className="saved-searches-list">
                {list.data.searches.map((search) => (
                  <SavedSearchRow
                    key={search.id}
                    serverId={serverId}
                    search={search}
                    deletable={mayDelete(search, me.data?.user.id, role)}
                    onApply={() => {
                      onApply(filtersOfQuery(search.query));
                      setOpen(false);
                    }}
                  />
                ))}
              </ul>
            </>
          )}
        </section>
      )}
    </>
  );
}

function SaveForm({ serverId, filters, full }: { serverId: string; filters: LogFilters; full: boolean }) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  /** Save was pressed without a filter: the hint becomes the refusal until a filter is set. */
  const [triedUnfiltered, setTriedUnfiltered] = useState(false);
  const [save, saving] = useSaveSearchMutation();
  const toast = useToast();
  const filtered = hasFilter(filters);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!filtered) {
      setTriedUnfiltered(true);
      return;
    }
    const local = nameProblem(name);
    setProblem(local);
    if (local !== null) return;
    const result = await save({ serverId, name: name.trim(), query: queryOfFilters(filters) });
    if ('error' in result) {
      setProblem(errorText(result.error, SAVED_SEARCH_TEXT.saveFailed));
      return;
    }
    setName('');
    toast.success(SAVED_SEARCH_TEXT.saved);
  }

  const shown = !filtered ? (triedUnfiltered ? 'refused' : 'hint') : problem !== null ? 'problem' : full ? 'full' : 'summary';
  return (
    <form className="saved-search-form" onSubmit={(event) => void submit(event)} noValidate>
      <label className="field-label" htmlFor="saved-search-name">
        {SAVED_SEARCH_TEXT.nameLabel}
      </label>
      <div className="saved-search-form-row">
        <Input
          id="saved-search-name"
          value={name}
          maxLength={SAVED_SEARCH_LIMITS.maxNameLength + 20}
          onChange={(e) => {
            setName(e.target.value);
            setProblem(null);
          }}
          placeholder="e.g. Bank robberies"
          aria-invalid={shown === 'problem' || shown === 'refused'}
          aria-describedby="saved-search-note"
          disabled={full}
        />
        <Button type="primary" htmlType="submit" loading={saving.isLoading} disabled={full}>
          {SAVED_SEARCH_TEXT.save}
        </Button>
      </div>
      <div id="saved-search-note">
        {shown === 'refused' ? (
          <Alert type="error" title={SAVED_SEARCH_TEXT.noFilter} className="form-alert" showIcon />
        ) : shown === 'hint' ? (
          <p className="muted">{SAVED_SEARCH_TEXT.noFilter}</p>
        ) : shown === 'problem' ? (
          <Alert type="error" title={problem} className="form-alert" showIcon />
        ) : shown === 'full' ? (
          <p className="muted">{SAVED_SEARCHES_FULL}</p>
        ) : (
          <p className="muted">Saves: {querySummary(queryOfFilters(filters))}</p>
        )}
      </div>
    </form>
  );
}

function SavedSearchRow({ serverId, search, deletable, onApply }: { serverId: string; search: SavedSearch; deletable: boolean; onApply(): void }) {
  const [confirming, setConfirming] = useState(false);
  const [remove, removing] = useDeleteSavedSearchMutation();
  const toast = useToast();

  async function confirmDelete() {
    const result = await remove({ serverId, id: search.id });
    if ('error' in result) toast.error(errorText(result.error, SAVED_SEARCH_TEXT.deleteFailed));
    else toast.success(SAVED_SEARCH_TEXT.deleted);
    setConfirming(false);
  }

  return (
    <li className="saved-search-row" data-testid="saved-search">
      <div className="saved-search-main">
        <Button type="link" className="saved-search-apply" onClick={onApply} aria-label={`Apply saved search ${search.name}`}>
          {search.name}
        </Button>
        <span className="muted saved-search-summary">{querySummary(search.query)}</span>
      </div>
      {deletable &&
        (confirming ? (
          <div className="saved-search-actions">
            <span role="alert">{SAVED_SEARCH_TEXT.confirmDelete}</span>
            <Button type="primary" className="webhook-danger" size="small" loading={removing.isLoading} onClick={() => void confirmDelete()}>
              Confirm delete
            </Button>
            <Button size="small" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </div>
        ) : (
          <div className="saved-search-actions">
            <Button className="webhook-danger" size="small" onClick={() => setConfirming(true)} aria-label={`Delete saved search ${search.name}`}>
              Delete
            </Button>
          </div>
        ))}
    </li>
  );
}
