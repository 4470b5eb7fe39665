import { CASE_LIMITS, CASE_TITLE_REQUIRED, CASE_TITLE_TOO_LONG, type CaseStatus } from '@skald/contracts/api';

/** The texts of the case screens and the "Add to case" dialog (docs/CASES.md). */
export const CASE_TEXT = {
  screen: 'Cases',
  addButton: 'Add to case',
  dialogTitle: 'Add to a case',
  chooseExisting: 'An open case',
  createNew: 'A new case',
  noOpenCases: 'No open case yet: create one.',
  titleLabel: 'Case title',
  notesLabel: 'Notes',
  add: 'Add',
  create: 'Create case',
  added: 'Added to the case',
  created: 'Case created',
  addFailed: 'The log could not be added to the case.',
  loading: 'Loading cases...',
  loadFailed: 'Failed to load the cases.',
  empty: 'No cases yet. Open one with "Add to case" on a log, a photo or a player’s timeline.',
  noServer: 'Select a server.',
  caseLoading: 'Loading the case...',
  caseFailed: 'Failed to load the case.',
  notFound: 'This case does not exist (any more), or belongs to a server you are not a member of.',
  notesSave: 'Save notes',
  notesSaved: 'Notes saved',
  close: 'Close case',
  reopen: 'Reopen case',
  closed: 'Case closed',
  reopened: 'Case reopened',
  pdf: 'Download PDF',
  pdfFailed: 'The PDF could not be made.',
  delete: 'Delete case',
  deleteConfirm: 'Delete this case, its copied logs and photos, for everyone?',
  confirmDelete: 'Confirm delete',
  cancel: 'Cancel',
  deleted: 'Case deleted',
  saveFailed: 'The change could not be saved.',
  rename: 'Rename',
  saveTitle: 'Save title',
  titleSaved: 'Title saved',
  kept: 'Copied when the case was opened: kept when retention or a cleanup removes the logs.',
  chosen: 'Chosen log',
} as const;

export const STATUS_LABEL: Record<CaseStatus, string> = { open: 'Open', closed: 'Closed' };

/** The title's problem before anything is sent (the server's own sentences), or null. */
export function titleProblem(title: string): string | null {
  const trimmed = title.trim();
  if (trimmed === '') return CASE_TITLE_REQUIRED;
  if ([...trimmed].length > CASE_LIMITS.maxTitleLength) return CASE_TITLE_TOO_LONG;
  return null;
}

/** The PDF's file name: the title's letters and digits (any script), else the id. */
export function casePdfName(title: string, id: string): string {
  const base = title.normalize('NFC').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 80);
  return `case-${base || id}.pdf`;
}

/** 'n / max cases' under the list. */
export function casesUsedLine(count: number, max: number): string {
  return `${count} / ${max} cases`;
}
