import { groupedNav, navGroups } from '@domain/notices';
import { useEffect, useRef, useState } from 'react';

/**
 * A notice number as people read it on a pagoPA notice, in groups of four ('3010 0000 0000 0011 54', as the
 * e-mail, the IO message and MyPay's PDF print it). The groups are set apart by CSS, not by spaces: a selection
 * copies the 18 digits alone, and so does the copy button, so the number pastes into a bank's or an app's
 * form that refuses spaces. '—' when the position has no notice yet.
 */
export function NoticeNumber({ nav }: { nav: string | null }) {
  const [copied, setCopied] = useState(false);
  const digits = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2500);
    return () => clearTimeout(timer);
  }, [copied]);
  if (!nav) return <>—</>;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(nav);
      setCopied(true);
    } catch {
      // No clipboard (an old browser, a page not served over HTTPS): select the digits for Ctrl+C.
      const range = document.createRange();
      if (digits.current) range.selectNodeContents(digits.current);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
    }
  };

  return (
    <span className="notice-number">
      <span ref={digits} className="notice-number__digits" translate="no" data-nav={nav}>
        {navGroups(nav).map((group, i) => (
          <span key={i}>{group}</span>
        ))}
      </span>
      <button
        type="button"
        className="notice-number__copy"
        aria-label={`Copia il numero avviso ${groupedNav(nav)}`}
        title="Copia il numero avviso"
        onClick={() => void copy()}
      >
        <svg aria-hidden="true" focusable="false" width="16" height="16" viewBox="0 0 24 24" fill="none">
          <path d="M9 9h11v11H9zM5 15H4V4h11v1" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
        </svg>
      </button>
      <span role="status" className={copied ? 'notice-number__copied' : 'visually-hidden'}>
        {copied ? 'Copiato' : ''}
      </span>
    </span>
  );
}
