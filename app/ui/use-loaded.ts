import { useEffect, useState } from 'preact/hooks';

/**
 * The value `load()` resolves to, loaded again when `deps` change; undefined while loading, `fallback`
 * when it fails. A result that arrives after the deps moved on is dropped.
 */
export function useLoaded<T>(load: () => Promise<T>, deps: readonly unknown[], fallback: T): T | undefined {
  const [value, setValue] = useState<T | undefined>(undefined);
  useEffect(() => {
    let live = true;
    load().then(
      (v) => live && setValue(v),
      () => live && setValue(fallback),
    );
    return () => {
      live = false;
    };
  }, deps);
  return value;
}
