/**
 * The page-side measurements of run.ts's create, read and listing sections. These functions are
 * serialised into the page (`page.evaluate`): self-contained, no imports.
 */

interface Timed {
  ms: number[];
  ids: string[];
  specifics: string[];
  bytes: number[];
}

/** Sequential creates; time of each request until its body is read. */
export function pageCreateSequential(bodies: string[]): Promise<Timed> {
  return (async () => {
    const out: Timed = { ms: [], ids: [], specifics: [], bytes: [] };
    for (const body of bodies) {
      const t0 = performance.now();
      const response = await fetch('/api/assets/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const text = await response.text();
      out.ms.push(performance.now() - t0);
      if (!response.ok) throw new Error(`create: ${response.status} ${text.slice(0, 300)}`);
      const asset = JSON.parse(text);
      out.ids.push(asset.id);
      out.specifics.push(asset.formats?.iterable?.[0]?.classification?.specific ?? '?');
      out.bytes.push(text.length);
    }
    return out;
  })();
}

/** Creates in concurrent batches; returns the ids and the wall time. */
export function pageCreateBatches(args: { bodies: string[]; batch: number }): Promise<{ ids: string[]; ms: number }> {
  return (async () => {
    const ids: string[] = [];
    const t0 = performance.now();
    for (let i = 0; i < args.bodies.length; i += args.batch) {
      const replies = await Promise.all(
        args.bodies.slice(i, i + args.batch).map(async (body) => {
          const response = await fetch('/api/assets/create?transferables=false', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          const text = await response.text();
          if (!response.ok) throw new Error(`create: ${response.status} ${text.slice(0, 300)}`);
          return JSON.parse(text).id as string;
        }),
      );
      ids.push(...replies);
    }
    return { ids, ms: performance.now() - t0 };
  })();
}

/** `GET /api/asset/{id}` and `GET /api/__echo` alternately (which goes first alternates too). */
export function pageReadInterleaved(args: { ids: string[]; warmup: number; samples: number; seed: number }): Promise<{ asset: number[]; echo: number[]; assetBytes: number }> {
  return (async () => {
    let s = args.seed >>> 0;
    const rnd = () => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return s / 4294967296;
    };
    const timed = async (url: string): Promise<[number, number]> => {
      const t0 = performance.now();
      const response = await fetch(url);
      const text = await response.text();
      const t = performance.now() - t0;
      if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${text.slice(0, 300)}`);
      return [t, text.length];
    };
    const asset: number[] = [];
    const echo: number[] = [];
    let assetBytes = 0;
    for (let i = 0; i < args.warmup + args.samples; i++) {
      const id = args.ids[Math.floor(rnd() * args.ids.length)];
      let a: [number, number];
      let e: [number, number];
      if (i % 2 === 0) {
        a = await timed(`/api/asset/${id}`);
        e = await timed('/api/__echo');
      } else {
        e = await timed('/api/__echo');
        a = await timed(`/api/asset/${id}`);
      }
      if (i >= args.warmup) {
        asset.push(a[0]);
        echo.push(e[0]);
        assetBytes += a[1];
      }
    }
    return { asset, echo, assetBytes: assetBytes / args.samples };
  })();
}

/**
 * Diagnostic: the records `GET /api/asset/{id}` reads, read directly from the worker's IndexedDB in the
 * page (`db`, opened by withPageIdb). "mirror": like the worker (a transaction over every store, asset then format + content, wait for
 * the transaction to complete); "minimal": a transaction over the three stores, no wait for completion.
 */
export function pageIdbRead({ db, ...args }: { db: IDBDatabase; ids: string[]; samples: number }): Promise<{ mirror: number[]; minimal: number[] }> {
  return (async () => {
    const get = (store: IDBObjectStore, key: string) =>
      new Promise<any>((resolve, reject) => {
        const request = store.get(key);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const read = async (id: string, all: boolean) => {
      const tx = db.transaction(all ? Array.from(db.objectStoreNames) : ['assets', 'formats', 'contents'], 'readonly');
      const done = new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      const asset = await get(tx.objectStore('assets'), id);
      if (!asset) throw new Error(`idb: no asset ${id}`);
      const [format, content] = await Promise.all([get(tx.objectStore('formats'), asset.formats[0]), get(tx.objectStore('contents'), asset.formats[0])]);
      if (all) await done;
      return JSON.stringify([asset, format, content]).length;
    };
    const mirror: number[] = [];
    const minimal: number[] = [];
    for (let i = 0; i < 20 + args.samples; i++) {
      const id = args.ids[i % args.ids.length]!;
      for (const all of i % 2 === 0 ? [true, false] : [false, true]) {
        const t0 = performance.now();
        await read(id, all);
        const t = performance.now() - t0;
        if (i >= 20) (all ? mirror : minimal).push(t);
      }
    }
    return { mirror, minimal };
  })();
}

/**
 * The listing with and without content, alternating, each timed until its body is read; with `floorUrl`,
 * the same bytes as a static file from the page's origin in between (the network path's floor for a
 * body that size).
 */
export function pageList(args: { warmup: number; samples: number; floorUrl?: string }): Promise<{
  plain: number[];
  transferables: number[];
  floor: number[];
  plainBytes: number;
  transferablesBytes: number;
  floorBytes: number;
  count: number;
}> {
  return (async () => {
    const out = { plain: [] as number[], transferables: [] as number[], floor: [] as number[], plainBytes: 0, transferablesBytes: 0, floorBytes: 0, count: 0 };
    const urls = [`/api/assets?transferables=false`, `/api/assets?transferables=true`, ...(args.floorUrl ? [args.floorUrl] : [])];
    for (let i = 0; i < args.warmup + args.samples; i++) {
      for (const url of i % 2 === 0 ? urls : [...urls].reverse()) {
        const t0 = performance.now();
        const response = await fetch(url, { cache: 'no-store' });
        const text = await response.text();
        const elapsed = performance.now() - t0;
        if (!response.ok) throw new Error(`${url}: ${response.status} ${text.slice(0, 300)}`);
        const [times, bytes] = url === args.floorUrl ? (['floor', 'floorBytes'] as const) : url.endsWith('true') ? (['transferables', 'transferablesBytes'] as const) : (['plain', 'plainBytes'] as const);
        if (i >= args.warmup) out[times].push(elapsed);
        out[bytes] = text.length;
        if (times === 'plain') out.count = JSON.parse(text).iterable.length;
      }
    }
    return out;
  })();
}

/** One timed request (for cold starts). */
export function pageTimedOnce(args: { url: string; method: string; body?: string }): Promise<number> {
  return (async () => {
    const t0 = performance.now();
    const response = await fetch(args.url, {
      method: args.method,
      ...(args.body ? { body: args.body, headers: { 'content-type': 'application/json' } } : {}),
    });
    const text = await response.text();
    const t = performance.now() - t0;
    if (!response.ok) throw new Error(`${args.method} ${args.url}: ${response.status} ${text.slice(0, 300)}`);
    return t;
  })();
}
