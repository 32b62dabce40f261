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
/** Room for the focus ring beside a control. */
const RING = 4;

/** Scrolls the window so that the element ends above every floating element it lies under; no-op otherwise. */
export function revealAboveFloating(element: Element) {
  const box = element.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) return;
  let clearTop = Infinity;
  for (const floating of document.querySelectorAll(FLOATING)) {
    if (floating.contains(element)) return;
    const cover = floating.getBoundingClientRect();
    const overlaps =
      cover.left < box.right && box.left < cover.right && cover.top < box.bottom && box.top < cover.bottom;
    if (overlaps) clearTop = Math.min(clearTop, cover.top);
  }
  if (clearTop === Infinity) return;
  const hidden = box.bottom + GAP - clearTop;
  if (hidden > 0) window.scrollBy({ top: hidden, behavior: 'instant' });
}

/**
 * Scrolls the sideways-scrolling box around the element (a wide table on a narrow screen) just enough to show
 * it whole with its focus ring. The browser scrolls to a focused control only when it cannot see it at all,
 * so a row's last action cut by the table's edge would stay cut.
 */
function revealSideways(element: Element) {
  for (let box = element.parentElement; box; box = box.parentElement) {
    if (box.scrollWidth <= box.clientWidth || !/auto|scroll/.test(getComputedStyle(box).overflowX)) continue;
    const shown = box.getBoundingClientRect();
    const { left, right } = element.getBoundingClientRect();
    if (right + RING > shown.right) box.scrollLeft += Math.min(right + RING - shown.right, left - RING - shown.left);
    else if (left - RING < shown.left) box.scrollLeft -= shown.left - (left - RING);
    return;
  }
}

let lastFocusAt = -Infinity;

/**
 * After each focus change (and the browser's own scroll to it), shows the focused control whole inside its
 * table, then above the floating elements. A control focused by a press of the pointer is not moved
 * sideways: it would slip from under the pointer before the click ends.
 */
export function useKeepFocusVisible() {
  useEffect(() => {
    let frame = 0;
    let pointerPressed = false;
    const onPointerDown = () => void (pointerPressed = true);
    const onPointerUp = () => void (pointerPressed = false);
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof Element) || target.closest('dialog')) return;
      lastFocusAt = performance.now();
      const byPointer = pointerPressed;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        if (document.activeElement !== target) return;
        if (!byPointer) revealSideways(target);
        revealAboveFloating(target);
      });
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('pointerup', onPointerUp, true);
    document.addEventListener('pointercancel', onPointerUp, true);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('pointerup', onPointerUp, true);
      document.removeEventListener('pointercancel', onPointerUp, true);
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
