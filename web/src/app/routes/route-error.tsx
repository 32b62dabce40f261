import { Button, Heading, Text } from '@aws-amplify/ui-react';
import { useRouteError } from 'react-router';
import { GENERIC_ERROR } from '@/lib/api';

/** A page that failed to load or to render (e.g. a new release replaced its code): offer a reload. */
export function RouteErrorPage() {
  console.error(useRouteError());
  return (
    <section className="portal-page portal-page--message">
      <Heading level={1}>Errore</Heading>
      <Text>{GENERIC_ERROR}</Text>
      <Button onClick={() => window.location.reload()}>Ricarica la pagina</Button>
    </section>
  );
}
