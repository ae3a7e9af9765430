/**
 * Page-side read loops shared by the bench's sections (test/bench/run.ts and test/bench/uncached.ts):
 * serialised into the page by `page.evaluate`, so each is self-contained.
 */

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


/** `GET /api/assets?transferables=false|true` alternately (which goes first alternates). */
export function pageList(args: { warmup: number; samples: number }): Promise<{ plain: number[]; transferables: number[]; plainBytes: number; transferablesBytes: number; count: number }> {
  return (async () => {
    const out = { plain: [] as number[], transferables: [] as number[], plainBytes: 0, transferablesBytes: 0, count: 0 };
    for (let i = 0; i < args.warmup + args.samples; i++) {
      for (const t of i % 2 === 0 ? [false, true] : [true, false]) {
        const t0 = performance.now();
        const response = await fetch(`/api/assets?transferables=${t}`);
        const text = await response.text();
        const elapsed = performance.now() - t0;
        if (!response.ok) throw new Error(`list: ${response.status} ${text.slice(0, 300)}`);
        if (i >= args.warmup) (t ? out.transferables : out.plain).push(elapsed);
        if (t) out.transferablesBytes = text.length;
        else {
          out.plainBytes = text.length;
          out.count = JSON.parse(text).iterable.length;
        }
      }
    }
    return out;
  })();
}

