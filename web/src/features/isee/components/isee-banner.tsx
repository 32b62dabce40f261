import { iseeBanner } from '@domain/isee';
import { Link } from 'react-router';
import { PageAlert } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { useNewestIsee } from '../api/list-my-isees';

const BLOCKED = 'Fino alla validazione non è possibile iscriversi ai bandi.';

/** The citizen home's banner from the newest ISEE (part 2 §4): none when VALIDATED. */
export function IseeBanner() {
  const newest = useNewestIsee();
  if (newest.isLoading && newest.data === undefined) return null;
  if (newest.error) return null;
  const banner = iseeBanner(newest.data);
  if (!banner) return null;
  const upload = <Link to={paths.citizenIseeUpload}>Carica l’ISEE</Link>;
  const content = {
    waiting: {
      variation: 'warning' as const,
      heading: 'ISEE in attesa di validazione',
      text: <>Il tuo ISEE non è ancora stato validato: attendi la verifica degli operatori. {BLOCKED}</>,
    },
    refused: {
      variation: 'error' as const,
      heading: 'ISEE rifiutato',
      text: (
        <>
          Il tuo ISEE è stato rifiutato: caricane uno nuovo. {BLOCKED} {upload}
        </>
      ),
    },
    missing: {
      variation: 'info' as const,
      heading: 'ISEE non caricato',
      text: (
        <>
          Non hai caricato nessun ISEE. {BLOCKED} {upload}
        </>
      ),
    },
  }[banner];
  return (
    <PageAlert
      message={content.text}
      heading={content.heading}
      variation={content.variation}
      autoHideMs={null}
      isDismissible={false}
    />
  );
}
