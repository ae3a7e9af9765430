import { clientDefaults } from '../client/defaults.ts';
import { IDEMPOTENCY_HEADER, TesseraApiError, type RestoreSummary } from '../client/api.ts';
import { download } from './format.ts';

/**
 * Backup and restore from the page: `GET /backup` saved as a file (named by the worker, with the date),
 * and `POST /backup/restore` of a chosen file, first as a dry run for the summary the user confirms.
 * The time of the last backup made here is kept in localStorage, for the 30-day reminder.
 */
const LAST_BACKUP_KEY = 'tessera:last-backup';
export const BACKUP_REMINDER_DAYS = 30;

export async function backUp(base = clientDefaults.base): Promise<string> {
  const response = await fetch(`${base}/backup`, { cache: 'no-store' });
  if (!response.ok) throw await apiError(response);
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `tessera-backup-${new Date().toISOString().slice(0, 10)}.ndjson`;
  // The body streams from the worker; the Blob is what a download needs.
  const blob = await response.blob();
  download(name, blob, 'application/x-ndjson');
  localStorage.setItem(LAST_BACKUP_KEY, new Date().toISOString());
  return name;
}

export async function restore(file: Blob, dryRun: boolean, base = clientDefaults.base): Promise<RestoreSummary> {
  // A key, as every write the client sends: a restore handed to a restarted worker runs once.
  const headers = { 'content-type': 'application/x-ndjson', [IDEMPOTENCY_HEADER]: crypto.randomUUID() };
  const response = await fetch(`${base}/backup/restore${dryRun ? '?dry_run=true' : ''}`, { method: 'POST', body: file, headers });
  if (!response.ok) throw await apiError(response);
  return (await response.json()) as RestoreSummary;
}

/** Days since the last backup made from this browser; undefined when there was none. */
export function daysSinceBackup(now = Date.now()): number | undefined {
  const last = localStorage.getItem(LAST_BACKUP_KEY);
  return last ? Math.floor((now - Date.parse(last)) / 86_400_000) : undefined;
}

export function lastBackup(): Date | undefined {
  const last = localStorage.getItem(LAST_BACKUP_KEY);
  return last ? new Date(last) : undefined;
}

async function apiError(response: Response): Promise<TesseraApiError> {
  const body = (await response.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
  return new TesseraApiError(response.status, body?.error?.code ?? 'http_error', body?.error?.message ?? `HTTP ${response.status}`);
}
