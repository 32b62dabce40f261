import { Link } from 'react-router';
import { PageAlert } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { useProfile } from '../api/get-profile';

/** While the profile misses required data the home asks the citizen to complete it. */
export function ProfileBanner() {
  const profile = useProfile();
  if (!profile.data || profile.data.profileComplete) return null;
  return (
    <PageAlert
      variation="info"
      heading="Completa il tuo profilo"
      message={
        <>
          Mancano alcuni dati del tuo profilo (indirizzo, data di nascita, e-mail).{' '}
          <Link to={paths.profile}>Completa il profilo</Link>
        </>
      }
      autoHideMs={null}
      isDismissible={false}
    />
  );
}
