import type { LinkedFile } from '@domain/calls';
import { Button, Flex, Text } from '@aws-amplify/ui-react';
import { useId, useState } from 'react';

const sizeLabel = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / 1024 / 1024).toFixed(1).replace('.', ',')} MB`;

/**
 * A list of stored files. 'Visualizza' shows one in the page (a PDF in the browser's viewer, an image as
 * an image); 'Apri' opens it in a new tab. Links last 5 minutes: the page fetches fresh ones on load.
 */
export function FileList({
  files,
  emptyText,
  label,
  actions,
}: {
  files: LinkedFile[];
  emptyText: string;
  label: string;
  actions?: (file: LinkedFile) => React.ReactNode;
}) {
  const [shown, setShown] = useState<string | null>(null);
  const viewerId = useId();
  if (files.length === 0) return <Text>{emptyText}</Text>;
  const current = files.find((file) => file.storageFileId === shown);
  return (
    <Flex direction="column" gap="small">
      <ul className="file-list" aria-label={label}>
        {files.map((file) => (
          <li key={file.storageFileId} className="file-list__item">
            <span className="file-list__name">
              {file.name}{' '}
              <span className="file-list__meta">
                ({file.contentType === 'application/pdf' ? 'PDF' : 'immagine'}, {sizeLabel(file.size)})
              </span>
            </span>
            <Flex gap="xs" wrap="wrap">
              <Button
                size="small"
                aria-controls={viewerId}
                aria-pressed={shown === file.storageFileId}
                aria-label={`Visualizza ${file.name}`}
                onClick={() => setShown(shown === file.storageFileId ? null : file.storageFileId)}
              >
                {shown === file.storageFileId ? 'Nascondi' : 'Visualizza'}
              </Button>
              <a
                className="amplify-button amplify-button--small"
                href={file.url}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`Apri ${file.name} (si apre in una nuova scheda)`}
              >
                Apri
              </a>
              {actions?.(file)}
            </Flex>
          </li>
        ))}
      </ul>
      <div id={viewerId}>{current && <FileViewer file={current} />}</div>
    </Flex>
  );
}

export function FileViewer({ file }: { file: LinkedFile }) {
  if (file.contentType === 'application/pdf') {
    return <iframe className="file-viewer file-viewer--pdf" src={file.url} title={`Anteprima di ${file.name}`} />;
  }
  return <img className="file-viewer file-viewer--image" src={file.url} alt={`Anteprima di ${file.name}`} />;
}
