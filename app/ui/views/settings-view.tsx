import { useEffect, useState } from 'preact/hooks';
import type { EmbedderInfo, EmbeddingProgress, RestoreSummary } from '../../client/api.ts';
import { listFolders, pickFolder, removeFolder, type GrantedFolder } from '../../client/folders.ts';
import { BACKUP_REMINDER_DAYS, backUp, daysSinceBackup, lastBackup, restore } from '../backup.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { dateTime } from '../format.ts';
import { messageOf } from '../library-state.ts';
import { useSession, type Session, type Theme } from '../session.ts';
import { EndpointCard } from './endpoint-card.tsx';

const THEMES: { value: Theme; label: string }[] = [
  { value: 'system', label: 'Follow the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Settings: storage, backup and restore, the embedder and its endpoint, the answer endpoint, granted folders, the theme. */
export function SettingsView() {
  const session = useSession();
  // Remounting the embedder card after the embeddings endpoint changed shows the new one.
  const [embedderShown, setEmbedderShown] = useState(0);
  return (
    <section class="settings" aria-labelledby="settings-title">
      <h2 id="settings-title" tabIndex={-1}>
        Settings
      </h2>
      <Storage />
      <Backup session={session} />
      <Embedder session={session} key={embedderShown} />
      <EmbeddingsEndpointSettings session={session} onChange={() => setEmbedderShown((n) => n + 1)} />
      <AnswerEndpointSettings session={session} />
      <Folders session={session} />
      <fieldset>
        <legend>Theme</legend>
        {THEMES.map((t) => (
          <label class="radio" key={t.value}>
            <input type="radio" name="theme" value={t.value} checked={session.theme.value === t.value} onChange={() => session.setTheme(t.value)} />
            {t.label}
          </label>
        ))}
      </fieldset>
    </section>
  );
}

function bytes(n: number | undefined): string {
  if (n === undefined) return '?';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) (n /= 1024), i++;
  return `${n.toFixed(i ? 1 : 0)} ${units[i]}`;
}

function Storage() {
  const [estimate, setEstimate] = useState<StorageEstimate | undefined>(undefined);
  const [persisted, setPersisted] = useState<boolean | undefined>(undefined);
  const [asked, setAsked] = useState<string | undefined>(undefined);
  useEffect(() => {
    navigator.storage?.estimate().then(setEstimate, () => {});
    navigator.storage?.persisted().then(setPersisted, () => {});
  }, []);
  const keep = async () => {
    const granted = await navigator.storage.persist().catch(() => false);
    setPersisted(granted);
    setAsked(granted ? 'The browser will keep this data unless you delete it.' : 'The browser declined for now (it grants this to sites you use often or install); your data is kept as long as there is room.');
  };
  return (
    <section aria-labelledby="storage-title" class="settings-card">
      <h3 id="storage-title">Storage</h3>
      <p>
        {estimate ? `${bytes(estimate.usage)} used of ${bytes(estimate.quota)} available to this site.` : 'Measuring…'}{' '}
        {persisted === undefined ? '' : persisted ? 'Kept: the browser will not clear it to free space.' : 'Not yet kept: the browser may clear it when the disk runs low.'}
      </p>
      {!persisted && (
        <button type="button" onClick={() => void keep()}>
          Keep my data
        </button>
      )}
      {asked && <p role="status">{asked}</p>}
    </section>
  );
}

function Backup({ session }: { session: Session }) {
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<{ file: File; summary: RestoreSummary } | undefined>(undefined);
  const [result, setResult] = useState<string | undefined>(undefined);
  const days = daysSinceBackup();
  const last = lastBackup();
  const run = async () => {
    setBusy(true);
    try {
      const name = await backUp();
      session.notify({ message: `Saved ${name}.` });
    } catch (error) {
      session.notify({ message: `Backup failed: ${messageOf(error)}`, error: true });
    } finally {
      setBusy(false);
    }
  };
  const choose = async (file: File | undefined) => {
    if (!file) return;
    setResult(undefined);
    try {
      setPending({ file, summary: await restore(file, true) });
    } catch (error) {
      setResult(`This file cannot be restored: ${unchanged(messageOf(error))}`);
    }
  };
  const apply = async () => {
    if (!pending) return;
    try {
      const summary = await restore(pending.file, false);
      setResult(`Restored: ${describe(summary)}.`);
      void session.library.refresh();
    } catch (error) {
      setResult(`Restore failed: ${unchanged(messageOf(error))}`);
    }
  };
  return (
    <section aria-labelledby="backup-title" class="settings-card">
      <h3 id="backup-title">Backup</h3>
      {(days === undefined || days > BACKUP_REMINDER_DAYS) && (session.library.rows.value?.length ?? 0) > 0 && (
        <p class="notice" role="note">
          {days === undefined ? 'This library has not been backed up from this browser yet.' : `The last backup is ${days} days old.`} Your library lives only in this
          browser profile: back it up now and then.
        </p>
      )}
      <p class="muted">
        One file with every asset, its formats and bytes, tags, websites, annotations, activity, conversations and vectors (not the answer endpoint's key).
        {last && ` Last backup: ${dateTime(last.getTime())}.`}
      </p>
      <div class="row-actions">
        <button type="button" onClick={() => void run()} disabled={busy}>
          Back up
        </button>
        <label class="file-button">
          Restore
          <input
            type="file"
            accept=".ndjson,application/x-ndjson,application/json"
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              // Emptied, so that choosing the same file again (after Cancel, or a failed restore) is a change.
              e.currentTarget.value = '';
              void choose(file);
            }}
          />
        </label>
      </div>
      {result && <p role="status">{result}</p>}
      {pending && (
        <ConfirmDialog title="Restore this backup?" confirm="Restore" onClose={() => setPending(undefined)} onConfirm={() => void apply()}>
          <p>
            {pending.file.name}, made {dateTime(Date.parse(pending.summary.backup.created))}. Records already here are merged by id: the newer one wins.
          </p>
          <p>{describe(pending.summary)}.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** The worker's refusal, saying that nothing changed (once: some refusals say it already). */
function unchanged(message: string): string {
  return /nothing was (changed|restored)/i.test(message) ? message : `${message} Nothing was changed.`;
}

function describe(summary: RestoreSummary): string {
  const parts: string[] = [];
  for (const [store, s] of Object.entries(summary.stores)) {
    if (s.added || s.replaced) parts.push(`${store}: ${s.added} new, ${s.replaced} replaced${s.kept ? `, ${s.kept} kept (newer here)` : ''}`);
  }
  return parts.length ? parts.join('; ') : 'nothing new: everything in it is already here';
}

function Embedder({ session }: { session: Session }) {
  const [info, setInfo] = useState<EmbedderInfo | undefined>(undefined);
  const [progress, setProgress] = useState<EmbeddingProgress | undefined>(undefined);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    session.api.embedder().then((i) => live && setInfo(i), () => {});
    const poll = async () => {
      const p = await session.api.embeddingProgress().catch(() => undefined);
      if (!live) return;
      setProgress(p);
      // While the library embeds, follow it; afterwards a look now and then is enough.
      timer = setTimeout(poll, p && (p.running || p.pending > 0) ? 1000 : 10_000);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);
  return (
    <section aria-labelledby="embedder-title" class="settings-card">
      <h3 id="embedder-title">Embeddings</h3>
      <p>
        {info ? (
          <>
            {embedderLabel(info)} ·{' '}
            {info.dimensions || '?'} dimensions · {info.status}
            {info.reason ? ` · ${info.reason}` : ''}
          </>
        ) : (
          'Loading…'
        )}
      </p>
      {progress && (
        <p>
          {progress.embedded} assets embedded{progress.pending > 0 ? `, ${progress.pending} to go` : ''} ({progress.snippets} snippets).
          {progress.pending > 0 && <progress value={progress.embedded} max={progress.embedded + progress.pending} aria-label="Embedding progress" />}
        </p>
      )}
    </section>
  );
}

function AnswerEndpointSettings({ session }: { session: Session }) {
  return (
    <EndpointCard
      id="endpoint"
      title="Answer endpoint"
      intro="Without one, answers are extractive: the passages of your snippets that answer best, each naming its source. With an OpenAI-compatible chat endpoint (a local Ollama or LM Studio, or a hosted one), a model writes the answer from those passages."
      modelPlaceholder="llama3.2"
      saveLabel="Save endpoint"
      saved="Saved. Answers now come from this endpoint (with an extractive answer when it fails)."
      removed="Removed: answers are extractive again."
      calls={{ get: session.api.answerEndpoint, set: session.api.setAnswerEndpoint, clear: session.api.clearAnswerEndpoint, test: session.api.testAnswerEndpoint }}
    />
  );
}

function EmbeddingsEndpointSettings({ session, onChange }: { session: Session; onChange: () => void }) {
  return (
    <EndpointCard
      id="embeddings-endpoint"
      title="Embeddings endpoint"
      intro="Optional. Relevance blends word matches with vectors from the built-in embedder; an OpenAI-compatible embeddings endpoint (a local Ollama with a code embedding model, say) can make the vectors instead. The library is embedded again after a change, and the built-in embedder answers while the endpoint fails."
      modelPlaceholder="nomic-embed-text"
      saveLabel="Save embeddings endpoint"
      saved="Saved. The library is embedded again with this endpoint."
      removed="Removed: the built-in embedder makes the vectors again."
      calls={{ get: session.api.embeddingsEndpoint, set: session.api.setEmbeddingsEndpoint, clear: session.api.clearEmbeddingsEndpoint, test: session.api.testEmbeddingsEndpoint }}
      onChange={onChange}
    />
  );
}

function Folders({ session }: { session: Session }) {
  const [folders, setFolders] = useState<GrantedFolder[] | undefined>(undefined);
  const [removing, setRemoving] = useState<GrantedFolder | undefined>(undefined);
  const refresh = () => listFolders().then(setFolders, () => setFolders([]));
  useEffect(() => void refresh(), []);
  const supported = typeof (window as unknown as { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function';
  const add = async () => {
    try {
      const folder = await pickFolder();
      session.notify({ message: `Granted “${folder.name}”: ask about it from Ask.` });
      void refresh();
    } catch (error) {
      if ((error as DOMException).name !== 'AbortError') session.notify({ message: `Could not add the folder: ${messageOf(error)}`, error: true });
    }
  };
  return (
    <section aria-labelledby="folders-title" class="settings-card">
      <h3 id="folders-title">Granted folders</h3>
      <p class="muted">Folders on this computer that Ask may read (read-only; the browser asks you first). The permission lasts until the browser restarts; add a folder again then.</p>
      {folders?.length ? (
        <ul class="folder-list">
          {folders.map((f) => (
            <li key={f.name}>
              <span>
                {f.name} <span class="muted">({f.path}, added {dateTime(Date.parse(f.created))})</span>
                {f.permission && f.permission !== 'granted' && (
                  <span class="error">
                    {' '}
                    · {f.permission === 'prompt' ? 'permission lapsed: add it again to renew' : 'permission denied'}
                  </span>
                )}
                {f.permission === 'granted' && <span class="muted"> · readable</span>}
              </span>
              <button type="button" class="secondary" aria-label={`Remove folder ${f.name}`} onClick={() => setRemoving(f)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p>{folders ? 'No folder granted.' : 'Loading…'}</p>
      )}
      <button type="button" class="secondary" onClick={() => void add()} disabled={!supported} title={supported ? undefined : 'This browser has no folder picker'}>
        Add a folder…
      </button>
      {removing && (
        <ConfirmDialog
          title={`Remove “${removing.name}”?`}
          confirm="Remove"
          onClose={() => setRemoving(undefined)}
          onConfirm={async () => {
            await removeFolder(removing.name).catch((error) => session.notify({ message: `Could not remove: ${messageOf(error)}`, error: true }));
            void refresh();
          }}
        >
          <p>Ask will no longer read it. The folder itself is not touched.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** What the active embedder is, in words. */
function embedderLabel(info: EmbedderInfo): string {
  switch (info.kind) {
    case 'hashing':
      return 'The built-in hashing embedder (no model files needed)';
    case 'code-vectors':
      return "Tessera's code vectors with the hashing embedder (built in)";
    case 'endpoint':
      return `The embeddings endpoint (${info.id})`;
    default:
      return `Model ${info.id}`;
  }
}
