/** The library view: lists the assets and saves a text as a new asset. The full UI is a later issue. */

interface AssetSummary {
  id: string;
  name?: string;
}

const APPLICATION = {
  id: 'tessera-app',
  name: 'OPEN_SOURCE',
  version: '0.1.0',
  platform: 'WEB',
  onboarded: true,
  privacy: 'OPEN',
} as const;

export function mountLibrary(doc: Document, base: string): void {
  const status = doc.querySelector<HTMLElement>('#status')!;
  const list = doc.querySelector<HTMLUListElement>('#assets')!;
  const form = doc.querySelector<HTMLFormElement>('#save')!;
  const text = doc.querySelector<HTMLTextAreaElement>('#text')!;

  const show = (message: string, error = false) => {
    status.textContent = message;
    if (error) status.dataset.error = '';
    else delete status.dataset.error;
  };

  async function refresh(): Promise<void> {
    const assets = await call<{ iterable?: AssetSummary[] }>(`${base}/assets?transferables=false`);
    const items = assets.iterable ?? [];
    list.replaceChildren(
      ...items.map((asset) => {
        const li = doc.createElement('li');
        li.textContent = asset.name || asset.id;
        return li;
      }),
    );
    show(`${items.length} asset${items.length === 1 ? '' : 's'}`);
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const raw = text.value;
    if (!raw.trim()) return;
    const seed = { asset: { application: APPLICATION, format: { fragment: { string: { raw } } } } };
    call(`${base}/assets/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(seed) })
      .then(() => {
        text.value = '';
        return refresh();
      })
      .catch((error: unknown) => show(`Save failed: ${messageOf(error)}`, true));
  });

  refresh().catch((error: unknown) => show(`Could not list the library: ${messageOf(error)}`, true));
}

async function call<T = unknown>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (body as { error?: { message?: string } } | null)?.error;
    throw new Error(error?.message ?? `HTTP ${response.status}`);
  }
  return body as T;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
