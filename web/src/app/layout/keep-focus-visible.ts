import { useEffect } from 'react';

/**
 * The cookie bar and 'Torna su' float over the page's bottom edge. A control that gets the focus (Tab, a
 * form's first invalid field) must not end under them (WCAG 2.4.11): the browser scrolls a control into view
 * only when it is outside the window, and a control inside the window but under a floating element stays
 * hidden. Floating elements carry the attribute data-floating; the page scrolls just enough to show the
 * control above them.
 */
const FLOATING = '[data-floating]';

const GAP = 8;

/** Scrolls the window so that the element ends above every floating element it lies under; no-op otherwise. */
export function revealAboveFloating(element: Element) {
  const box = element.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) return;
  let clearTop = Infinity;
  for (const floating of document.querySelectorAll(FLOATING)) {
    if (floating.contains(element)) return;
    const cover = floating.getBoundingClientRect();
    const overlaps = cover.left < box.right && box.left < cover.right && cover.top < box.bottom && box.top < cover.bottom;
    if (overlaps) clearTop = Math.min(clearTop, cover.top);
  }
  if (clearTop === Infinity) return;
  const hidden = box.bottom + GAP - clearTop;
  if (hidden > 0) window.scrollBy({ top: hidden, behavior: 'instant' });
}

let lastFocusAt = -Infinity;

/** After each focus change (and the browser's own scroll to it), shows the focused control above the floating elements. */
export function useKeepFocusVisible() {
  useEffect(() => {
    let frame = 0;
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof Element) || target.closest('dialog')) return;
      lastFocusAt = performance.now();
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        if (document.activeElement === target) revealAboveFloating(target);
      });
    };
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      cancelAnimationFrame(frame);
    };
  }, []);
}

/**
 * A floating element that appears because the focus scrolled the page ('Torna su' past 300 px) may cover
 * the control just focused. A control focused long before is left alone: the person is scrolling.
 */
export function revealFocusedAboveFloating() {
  if (performance.now() - lastFocusAt > 1000) return;
  const focused = document.activeElement;
  if (focused && focused !== document.body && !focused.closest('dialog')) revealAboveFloating(focused);
}
