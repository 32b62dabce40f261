import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { municipality } from '@/config/municipality';

/** The spec's mobile layout breakpoint (part 1 §9, part 2 §9). */
export const DESKTOP_QUERY = '(min-width: 992px)';

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}

/** "<page> — Servizi sociali — Comune di …": each page's own title for the browser tab and screen readers. */
export function useDocumentTitle(title: string | null) {
  useEffect(() => {
    if (title === null) return;
    const site = `${municipality.portalName} — ${municipality.name}`;
    document.title = title === 'Home' ? site : `${title} — ${site}`;
  }, [title]);
}

const isEditable = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** Backspace outside a form field goes back in history (spec part 2 §2.2). */
export function useBackspaceGoesBack() {
  const navigate = useNavigate();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Backspace' || event.defaultPrevented || event.repeat) return;
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (isEditable(event.target) || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      navigate(-1);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [navigate]);
}

/**
 * After a navigation, move the focus to the new page's h1 (or to main while the page loads), so that
 * keyboard and screen-reader users start from the new content. The first load keeps the browser's order.
 */
export function useFocusOnNavigation(mainId: string) {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const main = document.getElementById(mainId);
    if (!main) return;
    const focusHeading = () => {
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      return true;
    };
    if (focusHeading()) return;
    main.focus({ preventScroll: true });
    // A lazily loaded page brings its heading a moment later.
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    const timeout = window.setTimeout(() => observer.disconnect(), 5000);
    return () => {
      observer.disconnect();
      window.clearTimeout(timeout);
    };
  }, [pathname, mainId]);
}

/** Back one step in history, or home when the page was opened directly (nothing to go back to). */
export function useGoBack() {
  const navigate = useNavigate();
  return useCallback(() => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate('/');
  }, [navigate]);
}
