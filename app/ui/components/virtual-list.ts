import { elementScroll, observeElementOffset, observeElementRect, Virtualizer } from '@tanstack/virtual-core';
import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useReducer, useState } from 'preact/hooks';

/**
 * TanStack Virtual (framework-agnostic core) as a Preact hook: only the rows in view (plus a few) are
 * rendered, so a list of 10,000 scrolls like one of 50. Rows have one fixed height.
 */
export function useVirtualList(count: number, rowHeight: number, scroller: RefObject<HTMLElement | null>) {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [virtualizer] = useState(
    () =>
      new Virtualizer<HTMLElement, HTMLElement>({
        count,
        getScrollElement: () => scroller.current,
        estimateSize: () => rowHeight,
        overscan: 6,
        scrollToFn: elementScroll,
        observeElementRect,
        observeElementOffset,
        onChange: () => rerender(undefined as never),
      }),
  );
  virtualizer.setOptions({ ...virtualizer.options, count });
  useLayoutEffect(() => virtualizer._didMount(), [virtualizer]);
  useEffect(() => {
    virtualizer._willUpdate();
  });
  return virtualizer;
}
