import { PageAlert } from '@/components/page-alert';

/** The ISEE document in the page: a PDF in an in-page viewer, an image as an image, or the spec's alert. */
export function DocumentViewer({
  url,
  contentType,
  name,
}: {
  url: string | null | undefined;
  contentType: string | null;
  name: string;
}) {
  if (!url)
    return (
      <PageAlert
        message="Non è stato caricato nessun PDF"
        variation="warning"
        autoHideMs={null}
        isDismissible={false}
      />
    );
  if (contentType?.startsWith('image/'))
    return <img src={url} alt={`Documento ISEE: ${name}`} className="document-viewer document-viewer--image" />;
  return <iframe src={url} title={`Documento ISEE: ${name}`} className="document-viewer" />;
}
