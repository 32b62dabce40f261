import { VisuallyHidden } from '@aws-amplify/ui-react';

/** A paperclip when the ISEE has a document, a dash otherwise; read as 'documento allegato' / 'nessun documento'. */
export function AttachmentIcon({ hasFile }: { hasFile: boolean }) {
  const label = hasFile ? 'documento allegato' : 'nessun documento';
  return (
    <span title={label} className="attachment-icon">
      {hasFile ? (
        <svg
          aria-hidden="true"
          width="16"
          height="16"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          style={{ verticalAlign: 'text-bottom' }}
        >
          <path d="M21.44 11.05l-9.19 9.19a6 6 0 0 1-8.49-8.49l9.19-9.19a4 4 0 0 1 5.66 5.66l-9.2 9.19a2 2 0 0 1-2.83-2.83l8.49-8.48" />
        </svg>
      ) : (
        <span aria-hidden="true">—</span>
      )}
      <VisuallyHidden>{label}</VisuallyHidden>
    </span>
  );
}
