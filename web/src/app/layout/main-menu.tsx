import { useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { DESKTOP_QUERY, useMediaQuery } from '../hooks';
import type { MenuItem } from '../menus';

/**
 * The role's menu: a bar of buttons from 992 px up, a disclosure 'Menu' below (spec part 2 §2.2).
 */
export function MainMenu({ items }: { items: readonly MenuItem[] }) {
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const [open, setOpen] = useState(false);
  const listId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const { pathname, search } = useLocation();

  useEffect(() => setOpen(false), [pathname, search, desktop]);

  const list = (
    <ul id={listId} className={desktop ? 'portal-menu__bar' : 'portal-menu__list'} hidden={!desktop && !open}>
      {items.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} end={item.to === '/'} className="portal-menu__link">
            {item.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );

  return (
    <nav
      className="portal-menu"
      aria-label="Menu principale"
      onKeyDown={(event) => {
        if (!desktop && open && event.key === 'Escape') {
          setOpen(false);
          toggleRef.current?.focus();
        }
      }}
    >
      <div className="portal-container">
        {!desktop && (
          <button
            ref={toggleRef}
            type="button"
            className="portal-menu__toggle"
            aria-expanded={open}
            aria-controls={listId}
            onClick={() => setOpen((value) => !value)}
          >
            <svg aria-hidden="true" focusable="false" width="24" height="24" viewBox="0 0 24 24">
              {open ? (
                <path
                  fill="currentColor"
                  d="M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6z"
                />
              ) : (
                <path fill="currentColor" d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" />
              )}
            </svg>
            Menu
          </button>
        )}
        {list}
      </div>
    </nav>
  );
}
