import { Alert, Heading } from '@aws-amplify/ui-react';
import { useEffect, useState } from 'react';
import { fullAddress, municipality } from '@/config/municipality';
import { Markdown } from '../components/markdown';
import { PageLoader } from '../layout/page-loader';
import { GENERIC_ERROR } from '@/lib/api';

/** The notice is a static file, so the council can change it without a release (spec part 2 §2.10). */
export const PRIVACY_SOURCE = '/privacy_policy.md';

/** The council's details come from config/municipality.ts, written once. */
const fill = (text: string) =>
  text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
    const values: Record<string, string> = {
      comune: municipality.name,
      ufficio: municipality.office,
      indirizzo: fullAddress(),
      email: municipality.email,
      pec: municipality.pec,
      titolare: municipality.privacy.controller,
      rpd: municipality.privacy.dpoEmail,
      telefono: municipality.phoneSupport.number,
    };
    return values[key] ?? whole;
  });

export function PrivacyPage() {
  const [source, setSource] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    fetch(PRIVACY_SOURCE, { signal: controller.signal, cache: 'no-cache' })
      .then(async (response) => {
        // A missing file comes back as the app's index.html from a single-page-app host: not the notice.
        const type = response.headers.get('content-type') ?? '';
        if (!response.ok || type.includes('text/html'))
          throw new Error(`Informativa non disponibile (${response.status})`);
        setSource(fill(await response.text()));
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(error);
        setFailed(true);
      });
    return () => controller.abort();
  }, []);

  if (failed) {
    return (
      <section className="portal-page">
        <Heading level={1}>Informativa sulla privacy</Heading>
        <Alert variation="error" heading="Attenzione">
          {GENERIC_ERROR}
        </Alert>
      </section>
    );
  }
  if (source === null) return <PageLoader label="Caricamento dell’informativa..." />;
  return (
    <article className="portal-page portal-prose">
      <Markdown source={source} />
    </article>
  );
}
