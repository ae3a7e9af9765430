import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Asset, ClassificationSpecificEnum } from '../../client/api.ts';
import { descriptionOf, languageOfAsset, notesOf, textOf, textSeed, withEdits, type Note } from '../asset-content.ts';
import { CodeEditor } from '../components/code-editor.tsx';
import { epochOf } from '../format.ts';
import { LANGUAGES, languageLabel } from '../languages.ts';
import { messageOf } from '../library-state.ts';
import { navigate } from '../router.ts';
import { useSession } from '../session.ts';
import { useAsset } from '../use-asset.ts';

interface Draft {
  name: string;
  text: string;
  description: string;
  language: string;
  /** Annotations other than the description (Edit only). */
  notes?: Note[];
}

/** "New": a form whose language and name the draft API suggests as the content is typed or pasted. */
export function NewAssetView({ initial }: { initial?: Partial<Draft> }) {
  const session = useSession();
  const [draft, setDraft] = useState<Draft>({ name: '', text: '', description: '', language: '', ...initial });
  const touched = useRef({ name: false, language: false });
  const [suggested, setSuggested] = useState<{ name?: string; language?: string }>({});

  // The draft API classifies the content and suggests a name; fields the user set are left alone.
  useEffect(() => {
    if (!draft.text.trim()) return;
    const timer = setTimeout(() => {
      session.api.draft(textSeed(draft.text)).then(
        (seed) => {
          const name = seed.asset?.metadata?.name ?? undefined;
          const language = seed.asset?.format.classification?.specific ?? undefined;
          setSuggested({ name, language });
          setDraft((d) => ({
            ...d,
            name: touched.current.name || !name ? d.name : name,
            language: touched.current.language || !language ? d.language : language,
          }));
        },
        () => {},
      );
    }, 250);
    return () => clearTimeout(timer);
  }, [draft.text]);

  const save = async () => {
    if (!draft.text.trim()) {
      session.notify({ message: 'Write or paste some content first.', error: true });
      return;
    }
    try {
      const seed = textSeed(draft.text, { name: draft.name.trim() || undefined, language: (draft.language || undefined) as ClassificationSpecificEnum | undefined });
      if (draft.description.trim()) seed.asset!.metadata = { ...seed.asset!.metadata, annotations: [{ type: 'DESCRIPTION', text: draft.description.trim() }] };
      const created = await session.api.create(seed);
      session.notify({ message: `Saved “${created.name || 'Untitled'}”.` });
      navigate({ view: 'asset', id: created.id });
    } catch (error) {
      session.notify({ message: `Save failed: ${messageOf(error)}`, error: true });
    }
  };

  return (
    <AssetForm
      title="New snippet"
      draft={draft}
      suggested={suggested}
      onChange={(patch) => {
        if ('name' in patch) touched.current.name = true;
        if ('language' in patch) touched.current.language = true;
        setDraft((d) => ({ ...d, ...patch }));
      }}
      onSave={save}
      onCancel={() => navigate({ view: 'library' })}
    />
  );
}

/** "Edit": the open asset's name, content, description and language; a change made elsewhere never overwrites what is typed. */
export function EditAssetView({ id }: { id: string }) {
  const session = useSession();
  const { asset, error, gone } = useAsset(id);
  const [base, setBase] = useState<Asset | undefined>(undefined);
  const [draft, setDraft] = useState<Draft | undefined>(undefined);
  const [saving, setSaving] = useState(false);

  // The first load fills the form; later loads (changes elsewhere) only note that the stored asset moved on.
  useEffect(() => {
    if (asset && !base) {
      setBase(asset);
      setDraft({ name: asset.name ?? '', text: textOf(asset) ?? '', description: descriptionOf(asset), language: languageOfAsset(asset) ?? '', notes: notesOf(asset) });
    }
  }, [asset]);

  if (gone) return <p role="alert">This asset was deleted, here or elsewhere; your edits were not saved.</p>;
  if (error) return <p class="error" role="alert">Could not open the asset: {error}</p>;
  if (!base || !draft) return <p class="loading">Loading…</p>;
  const changedElsewhere = !!asset && epochOf(asset.updated.value) !== epochOf(base.updated.value);

  const save = async () => {
    if (saving) return;
    setSaving(true);
    try {
      // Edits apply to the asset as stored now: a tag added in another tab meanwhile is kept.
      const current = await session.api.getAsset(id);
      let saved = await session.api.update(withEdits(current, draft));
      if (draft.language && draft.language !== languageOfAsset(saved)) {
        saved = await session.api.reclassify(saved, draft.language as ClassificationSpecificEnum);
      }
      session.notify({ message: `Saved “${saved.name || 'Untitled'}”.` });
      navigate({ view: 'asset', id });
    } catch (e) {
      session.notify({ message: `Save failed: ${messageOf(e)}`, error: true });
    } finally {
      setSaving(false);
    }
  };

  return (
    <AssetForm
      title={`Edit “${base.name || 'Untitled'}”`}
      draft={draft}
      notice={changedElsewhere ? 'This asset was changed elsewhere since you opened it. Saving keeps your text, name and description.' : undefined}
      onChange={(patch) => setDraft((d) => ({ ...d!, ...patch }))}
      onSave={save}
      onCancel={() => navigate({ view: 'asset', id })}
      busy={saving}
    />
  );
}

function AssetForm(props: {
  title: string;
  draft: Draft;
  suggested?: { name?: string; language?: string };
  notice?: string;
  busy?: boolean;
  onChange: (patch: Partial<Draft>) => void;
  onSave: () => void;
  onCancel: () => void;
}) {
  const { draft } = props;
  const name = useRef<HTMLInputElement>(null);
  // Before the form is painted, so that keys typed as soon as it shows go to its first field.
  useLayoutEffect(() => name.current?.focus(), []);
  const known = LANGUAGES.some((l) => l.ext === draft.language);
  return (
    <form
      class="asset-form"
      aria-labelledby="form-title"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSave();
      }}
      onKeyDown={(e) => {
        if ((e.ctrlKey || e.metaKey) && e.key === 's') {
          e.preventDefault();
          props.onSave();
        }
      }}
    >
      <h2 id="form-title" tabIndex={-1}>{props.title}</h2>
      {props.notice && (
        <p class="notice" role="note">
          {props.notice}
        </p>
      )}
      <div class="form-row">
        <label class="field grow">
          <span>Name</span>
          <input ref={name} type="text" value={draft.name} placeholder={props.suggested?.name ?? 'A name for this snippet'} onInput={(e) => props.onChange({ name: e.currentTarget.value })} />
        </label>
        <label class="field">
          <span>Language</span>
          <select aria-label="Language" value={draft.language} onChange={(e) => props.onChange({ language: e.currentTarget.value })}>
            <option value="">Detect automatically</option>
            {!known && draft.language && <option value={draft.language}>{languageLabel(draft.language)}</option>}
            {LANGUAGES.map((l) => (
              <option value={l.ext} key={l.ext}>
                {l.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div class="field">
        <span id="content-label">Content</span>
        <CodeEditor value={draft.text} language={draft.language || props.suggested?.language} label="Content" onChange={(text) => props.onChange({ text })} />
      </div>
      <label class="field">
        <span>Description</span>
        <textarea rows={2} value={draft.description} placeholder="What is it for? (optional)" onInput={(e) => props.onChange({ description: e.currentTarget.value })} />
      </label>
      {draft.notes && <Notes notes={draft.notes} onChange={(notes) => props.onChange({ notes })} />}
      <div class="form-actions">
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" disabled={props.busy} aria-keyshortcuts="Control+S">
          Save
        </button>
      </div>
    </form>
  );
}

/** The asset's annotations besides its description (comments, documentation, …): edit, remove, add. */
function Notes({ notes, onChange }: { notes: Note[]; onChange: (notes: Note[]) => void }) {
  const set = (i: number, patch: Partial<Note>) => onChange(notes.map((n, j) => (j === i ? { ...n, ...patch } : n)));
  return (
    <fieldset class="notes-editor">
      <legend>Annotations</legend>
      {notes.length === 0 && <p class="muted small">No annotations besides the description.</p>}
      {notes.map((note, i) => (
        <div class="note-row" key={note.id ?? i}>
          <label class="field grow">
            <span>{`Annotation ${i + 1} (${note.type.toLowerCase()})`}</span>
            <textarea rows={2} value={note.text} onInput={(e) => set(i, { text: e.currentTarget.value })} />
          </label>
          <button type="button" class="secondary" aria-label={`Remove annotation ${i + 1}`} onClick={() => onChange(notes.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" class="secondary" onClick={() => onChange([...notes, { type: 'COMMENT', text: '' }])}>
        Add annotation
      </button>
    </fieldset>
  );
}
