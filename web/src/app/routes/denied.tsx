import { Button, Heading, Text } from '@aws-amplify/ui-react';
import { useGoBack } from '../hooks';

/** Any page the role may not open, and any path the portal does not have (spec part 2 §2.1). */
export function DeniedPage() {
  const goBack = useGoBack();
  return (
    <section className="portal-page portal-page--message">
      <Heading level={1}>Autorizzazione negata</Heading>
      <Text>Non sei autorizzato a visualizzare questa pagina.</Text>
      <Button onClick={goBack}>Indietro</Button>
    </section>
  );
}
