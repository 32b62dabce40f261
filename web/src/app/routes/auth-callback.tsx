import { Heading, Text } from '@aws-amplify/ui-react';
import { Link, Navigate } from 'react-router';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { useDocumentTitle } from '../hooks';
import { PageLoader } from '../layout/page-loader';

/** The identity provider sends the browser back here; the auth provider redeems the code, then home. */
export function AuthCallbackPage() {
  const { status, error } = useAuth();
  useDocumentTitle('Accesso');
  if (status === 'loading') return <PageLoader label="Accesso in corso..." />;
  if (status === 'anonymous' && error) {
    return (
      <section className="portal-page portal-page--message">
        <Heading level={1}>Accesso non riuscito</Heading>
        <Text>Non è stato possibile completare l’accesso con SPID o CIE.</Text>
        <Text>
          <Link to={paths.home}>Torna alla Home</Link>
        </Text>
      </section>
    );
  }
  return <Navigate to={paths.home} replace />;
}
