import { useEffect, useRef } from 'preact/hooks';
import type { ComponentChildren } from 'preact';

/** A modal `<dialog>` (focus trapped, Escape cancels) with a confirm and a cancel button. */
export function ConfirmDialog(props: {
  title: string;
  confirm: string;
  children: ComponentChildren;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current!;
    if (!dialog.open) dialog.showModal();
    const closed = () => props.onClose();
    dialog.addEventListener('close', closed);
    return () => dialog.removeEventListener('close', closed);
  }, []);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby="dialog-title">
      <form
        method="dialog"
        onSubmit={(e) => {
          if ((e.submitter as HTMLButtonElement | null)?.value === 'confirm') props.onConfirm();
        }}
      >
        <h2 id="dialog-title">{props.title}</h2>
        <div class="dialog-body">{props.children}</div>
        <div class="dialog-actions">
          <button type="submit" value="cancel" class="secondary" autofocus>
            Cancel
          </button>
          <button type="submit" value="confirm" class="danger">
            {props.confirm}
          </button>
        </div>
      </form>
    </dialog>
  );
}
