import { ACCESSIBILITY_SUBJECT } from '@domain/ticket-subjects';
import { Link } from 'react-router';
import { fullAddress, municipality } from '@/config/municipality';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { runtimeConfig } from '@/lib/runtime-config';

/**
 * Every page's footer: the council's contacts, the phone-support hours and the privacy link (spec part 1 §1);
 * the accessibility statement (AgID's form, its address a deployment setting in /config.json) and the way to
 * report an accessibility problem, which a PA site must offer to everyone: a citizen's support form with that
 * subject chosen (a ticket the office handles), or for anyone else an e-mail to the office.
 */
export function Footer() {
  const { phoneSupport } = municipality;
  const { me } = useAuth();
  const statement = runtimeConfig().accessibilityStatementUrl;
  const citizen = me?.role === 'CITIZEN' && !me.workingEntityId;
  const reportForm = `${paths.support}?oggetto=${encodeURIComponent(ACCESSIBILITY_SUBJECT)}`;
  const reportMail = `mailto:${municipality.email}?subject=${encodeURIComponent('Segnalazione di un problema di accessibilità')}`;
  return (
    <footer className="portal-footer">
      <div className="portal-container portal-footer__grid">
        <section aria-labelledby="footer-ente">
          <h2 id="footer-ente" className="portal-footer__title">
            {municipality.name}
          </h2>
          <p>
            {municipality.office}
            <br />
            {fullAddress()}
          </p>
          <p>Codice fiscale {municipality.fiscalCode}</p>
        </section>
        <section aria-labelledby="footer-contatti">
          <h2 id="footer-contatti" className="portal-footer__title">
            Contatti
          </h2>
          <p>
            Assistenza telefonica: <a href={`tel:${phoneSupport.dial}`}>{phoneSupport.number}</a>
          </p>
          <p>Orari dell’assistenza telefonica:</p>
          <ul>
            {phoneSupport.hours.map((hours) => (
              <li key={hours}>{hours}</li>
            ))}
          </ul>
          <p>
            E-mail: <a href={`mailto:${municipality.email}`}>{municipality.email}</a>
            <br />
            PEC: <a href={`mailto:${municipality.pec}`}>{municipality.pec}</a>
          </p>
        </section>
        <section aria-labelledby="footer-info">
          <h2 id="footer-info" className="portal-footer__title">
            Informazioni
          </h2>
          <ul className="portal-footer__links">
            <li>
              <Link to={paths.privacy}>Privacy</Link>
            </li>
            <li>
              <a href={paths.manual} target="_blank" rel="noopener">
                Manuale d’uso (PDF)<span className="visually-hidden"> (si apre in una nuova scheda)</span>
              </a>
            </li>
            {statement && (
              <li>
                <a href={statement} target="_blank" rel="noopener">
                  Dichiarazione di accessibilità<span className="visually-hidden"> (si apre in una nuova scheda)</span>
                </a>
              </li>
            )}
            <li>
              {citizen ? (
                <Link to={reportForm}>Segnala un problema di accessibilità</Link>
              ) : (
                <a href={reportMail}>Segnala un problema di accessibilità</a>
              )}
            </li>
          </ul>
        </section>
      </div>
    </footer>
  );
}
