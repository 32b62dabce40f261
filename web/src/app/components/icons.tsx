/** Decorative line icons for the dashboard cards (24 × 24, current colour). */
const paths = {
  document: 'M6 2h8l6 6v14H6zm8 1.5V9h5.5M9 13h8M9 17h8',
  users: 'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 10v-1a7 7 0 0 1 14 0v1M17 3.5a4 4 0 0 1 0 7.5M22 21v-1a6 6 0 0 0-4-5.7',
  ticket: 'M3 7h18v3a2 2 0 0 0 0 4v3H3v-3a2 2 0 0 0 0-4zm11 0v10',
  services: 'M12 21s-8-5-8-11a5 5 0 0 1 8-4 5 5 0 0 1 8 4c0 6-8 11-8 11z',
  calls: 'M4 4h16v16H4zm4 4h8M8 12h8M8 16h5',
  upload: 'M12 16V4m0 0L7 9m5-5 5 5M4 15v5h16v-5',
  person: 'M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm-8 10v-2c0-3 3.6-5 8-5s8 2 8 5v2',
  book: 'M4 4h7a3 3 0 0 1 3 3v14a3 3 0 0 0-3-3H4zm16 0h-6v17M20 4v14h-6',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name }: { name: IconName }) {
  return (
    <svg aria-hidden="true" focusable="false" width="32" height="32" viewBox="0 0 24 24" fill="none">
      <path d={paths[name]} stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
