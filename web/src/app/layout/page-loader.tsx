import { Loader } from '@aws-amplify/ui-react';

/** A page (or its data) on its way: the spinner is decoration, the text is announced. */
export function PageLoader({ label = 'Caricamento in corso...' }: { label?: string }) {
  return (
    <div className="portal-loader" role="status">
      <Loader size="large" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
