import type { ReactNode } from 'react';
import { Link, type To } from 'react-router';

export interface ButtonLinkProps {
  to: To;
  children: ReactNode;
  /** Amplify button look: default (outlined), 'primary' or 'link'. */
  variation?: 'primary' | 'link';
  size?: 'small' | 'large';
  /** Accessible name when the visible text is not enough (it must contain the visible text). */
  'aria-label'?: string;
  className?: string;
}

/**
 * A navigation that looks like an Amplify button but is a real link (router <Link>): it can be
 * opened in a new tab and screen readers announce it as a link.
 */
export function ButtonLink({ to, children, variation, size, className, ...aria }: ButtonLinkProps) {
  const classes = [
    'amplify-button',
    variation && `amplify-button--${variation}`,
    size && `amplify-button--${size}`,
    className,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <Link to={to} className={classes} {...aria}>
      {children}
    </Link>
  );
}
