import { Button, Link } from '@aws-amplify/ui-react';
import type { Isee } from '@domain/isee';
import { Dialog } from '@/components/dialog';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { useIsee } from '../api/get-isee';
import { DocumentViewer } from './document-viewer';

/**
 * A citizen's own ISEE document, in the page (the viewer of the operator's 'Visualizza ISEE'): opening it
 * asks GET /api/isee/{id} for a link of a few minutes, so the link is always fresh. 'Apri in una nuova
 * scheda' opens the same link in the browser's own viewer.
 */
export function IseeDocumentDialog({ isee, onClose }: { isee: Isee | null; onClose: () => void }) {
  return (
    <Dialog
      open={isee !== null}
      wide
      title={isee ? `Documento dell'ISEE ${isee.year}` : ''}
      onClose={onClose}
      actions={<Button onClick={onClose}>Chiudi</Button>}
    >
      {isee && <DocumentContent id={isee.id} />}
    </Dialog>
  );
}

function DocumentContent({ id }: { id: string }) {
  const detail = useIsee(id);
  if (detail.error) return <ErrorState message={detail.error.message} />;
  const data = detail.data;
  if (!data || data.id !== id) return <LoadingState />;
  const name = data.fileName ?? 'documento';
  return (
    <>
      <DocumentViewer url={data.fileUrl} contentType={data.contentType} name={name} />
      {data.fileUrl && (
        <p>
          <Link href={data.fileUrl} isExternal>
            Apri {name} in una nuova scheda
          </Link>
        </p>
      )}
    </>
  );
}
