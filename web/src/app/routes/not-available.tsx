import { Heading, Text } from '@aws-amplify/ui-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

/** A page the role may open whose section is not built yet: said plainly, never a fake screen. */
export function NotAvailablePage({ title }: { title: string }) {
  return (
    <section className="portal-page portal-page--message">
      <Heading level={1}>{title}</Heading>
      <Text>Questa sezione non è ancora disponibile.</Text>
      <Text>
        <Link to={paths.home}>Torna alla Home</Link>
      </Text>
    </section>
  );
}
