import { useEffect, useRef, useState } from 'preact/hooks';

/** An action the palette lists (and runs). `keys` is shown beside it. */
export interface Command {
  id: string;
  label: string;
  keys?: string;
  run: () => void;
}

/**
 * Ctrl/Cmd+K: every action of the current view by name. Type to filter, arrows to choose, Enter to
 * run, Escape to close. A modal `<dialog>` with a combobox and a listbox (ARIA 1.2 pattern).
 */
export function CommandPalette({ commands, onClose }: { commands: Command[]; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = commands.filter((c) => words.every((w) => c.label.toLowerCase().includes(w)));
  const current = Math.min(active, Math.max(shown.length - 1, 0));

  useEffect(() => {
    const d = dialog.current!;
    if (!d.open) d.showModal();
    const closed = () => onClose();
    d.addEventListener('close', closed);
    return () => d.removeEventListener('close', closed);
  }, []);

  const run = (command: Command | undefined) => {
    if (!command) return;
    dialog.current?.close();
    command.run();
  };

  return (
    <dialog ref={dialog} class="palette" aria-label="Command palette">
      <input
        type="text"
        role="combobox"
        aria-label="Command"
        aria-expanded="true"
        aria-controls="palette-list"
        aria-activedescendant={shown[current] ? `cmd-${shown[current]!.id}` : undefined}
        placeholder="Type a command…"
        value={text}
        autofocus
        onInput={(e) => {
          setText(e.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setActive((current + 1) % Math.max(shown.length, 1));
          else if (e.key === 'ArrowUp') setActive((current - 1 + shown.length) % Math.max(shown.length, 1));
          else if (e.key === 'Enter') run(shown[current]);
          else return;
          e.preventDefault();
        }}
      />
      <ul id="palette-list" role="listbox" aria-label="Commands">
        {shown.map((c, i) => (
          <li
            id={`cmd-${c.id}`}
            key={c.id}
            role="option"
            aria-selected={i === current}
            class={i === current ? 'active' : ''}
            onClick={() => run(c)}
            onMouseMove={() => setActive(i)}
          >
            <span>{c.label}</span>
            {c.keys && <kbd>{c.keys}</kbd>}
          </li>
        ))}
        {shown.length === 0 && <li class="none">No command matches “{text}”.</li>}
      </ul>
    </dialog>
  );
}
