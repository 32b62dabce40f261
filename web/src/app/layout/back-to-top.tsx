import { useEffect, useLayoutEffect, useState } from 'react';
import { revealFocusedAboveFloating } from './keep-focus-visible';

/** 'Torna su' appears once the page is scrolled by more than 300 px (spec part 2 §2.2). */
export function BackToTop({ raised }: { raised: boolean }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > 300);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  useLayoutEffect(() => {
    if (visible) revealFocusedAboveFloating();
  }, [visible]);
  if (!visible) return null;
  return (
    <button
      type="button"
      data-floating=""
      title="Torna su"
      className={`portal-backtotop${raised ? ' portal-backtotop--raised' : ''}`}
      onClick={() => {
        const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
        window.scrollTo({ top: 0, behavior: smooth ? 'smooth' : 'auto' });
        document.getElementById('inizio-pagina')?.focus({ preventScroll: true });
      }}
    >
      <svg aria-hidden="true" focusable="false" width="24" height="24" viewBox="0 0 24 24">
        <path fill="currentColor" d="M12 5.6 4.3 13.3l1.4 1.4 5.3-5.3V20h2V9.4l5.3 5.3 1.4-1.4z" />
      </svg>
      <span className="visually-hidden">Torna su</span>
    </button>
  );
}
