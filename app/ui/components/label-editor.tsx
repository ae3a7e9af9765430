import { useEffect, useState } from 'preact/hooks';

/**
 * A list of labels (tags, websites) with a remove button each, and a text box that adds one, with
 * suggestions from the labels already in the library (`<datalist>`: the browser's own autocomplete).
 */
export function LabelEditor(props: {
  /** "tag" or "website": names the controls ("Add tag", "Remove tag x"). */
  noun: string;
  items: { id: string; label: string; href?: string }[];
  suggestions: () => Promise<string[]>;
  onAdd: (text: string) => Promise<void>;
  onRemove: (id: string) => Promise<void>;
  placeholder: string;
  type?: 'text' | 'url';
}) {
  const [value, setValue] = useState('');
  const [options, setOptions] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const listId = `${props.noun}-suggestions`;
  useEffect(() => {
    props.suggestions().then(setOptions, () => setOptions([]));
  }, [props.items.length]);
  const present = new Set(props.items.map((i) => i.label.toLowerCase()));
  const add = async () => {
    const text = value.trim();
    if (!text || busy) return;
    setBusy(true);
    try {
      await props.onAdd(text);
      setValue('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="labels">
      <ul class="chips" aria-label={`${props.noun[0]!.toUpperCase()}${props.noun.slice(1)}s`}>
        {props.items.map((item) => (
          <li class="chip" key={item.id}>
            {item.href ? (
              <a href={item.href} target="_blank" rel="noopener noreferrer">
                {item.label}
              </a>
            ) : (
              <span>{props.noun === 'tag' ? `#${item.label}` : item.label}</span>
            )}
            <button type="button" class="chip-remove" aria-label={`Remove ${props.noun} ${item.label}`} onClick={() => void props.onRemove(item.id)}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <input
        type={props.type ?? 'text'}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded="false"
        aria-label={`Add ${props.noun}`}
        list={listId}
        placeholder={props.placeholder}
        value={value}
        disabled={busy}
        onInput={(e) => setValue(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void add();
          }
        }}
      />
      <datalist id={listId}>
        {options
          .filter((o) => !present.has(o.toLowerCase()))
          .map((o) => (
            <option value={o} key={o} />
          ))}
      </datalist>
    </div>
  );
}
