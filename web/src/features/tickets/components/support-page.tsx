import { Button, Flex, Heading, SelectField, Text, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { ACCESSIBILITY_SUBJECT, OTHER_SUBJECT } from '@domain/ticket-subjects';
import { SUPPORT_MESSAGE_MAX, supportMessageSchema, ticketMessages } from '@domain/tickets';
import { fieldErrors } from '@domain/validation';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useFieldValues, useFocusFirstInvalid } from '@/components/form-fields';
import { PageAlert } from '@/components/page-alert';
import { useApiQuery } from '@/lib/queries';
import { paths } from '@/config/paths';
import { toApiError } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { listSupportSubjects } from '../api/list-support-subjects';
import { sendSupportMessage } from '../api/support';

type Field = 'emailUser' | 'subject' | 'message';
/** Part 2 §9: the success text stays 4 s. */
const SUCCESS_MS = 4000;

/** /supporto (part 2 §2.9, §5): the manual, the contact form (e-mail, subject, message ≤ 400 with a counter), 'Le mie segnalazioni'. */
export function SupportPage() {
  const { me } = useAuth();
  const subjects = useApiQuery(['tickets', 'subjects'], listSupportSubjects);
  // ?oggetto=… chooses the subject (the footer's 'Segnala un problema di accessibilità').
  const [params] = useSearchParams();
  const { values, setValues, setErrors, bind } = useFieldValues<Field>({
    emailUser: me?.email ?? '',
    subject: params.get('oggetto') === ACCESSIBILITY_SUBJECT ? ACCESSIBILITY_SUBJECT : '',
    message: '',
  });
  const [alert, setAlert] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    setSuccess(null);
    const parsed = supportMessageSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      focusFirstInvalid();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await sendSupportMessage(parsed.data);
      setValues((v) => ({ ...v, subject: '', message: '' }));
      setSuccess(ticketMessages.sent);
    } catch (error) {
      const apiError = toApiError(error);
      const byField = apiError.fieldErrors as Partial<Record<Field, string>>;
      if (byField.emailUser || byField.subject || byField.message) setErrors(byField);
      else setAlert(apiError.message);
    } finally {
      setBusy(false);
    }
  };

  const length = values.message.length;
  return (
    <Flex direction="column" gap="medium" maxWidth="44rem">
      <Heading level={1}>Supporto</Heading>
      <Text>
        Prima di scriverci consulta il{' '}
        <a href={paths.manual} target="_blank" rel="noopener noreferrer">
          manuale del portale (PDF, si apre in una nuova scheda)
        </a>
        . Le tue segnalazioni e il loro stato sono in <Link to={paths.myTickets}>Le mie segnalazioni</Link>.
      </Text>
      <PageAlert message={alert} autoHideMs={null} onDismiss={() => setAlert(null)} />
      <PageAlert variation="success" message={success} autoHideMs={SUCCESS_MS} onDismiss={() => setSuccess(null)} />
      <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate aria-label="Modulo di contatto">
        <Flex direction="column" gap="medium">
          <TextField {...bind('emailUser')} label="E-mail" type="email" autoComplete="email" isRequired />
          <SelectField {...bind('subject')} label="Oggetto" placeholder="Seleziona un servizio o Altro" isRequired>
            {(subjects.data?.subjects ?? [ACCESSIBILITY_SUBJECT, OTHER_SUBJECT]).map((subject) => (
              <option key={subject} value={subject}>
                {subject}
              </option>
            ))}
          </SelectField>
          <TextAreaField
            {...bind('message')}
            label="Messaggio"
            rows={6}
            isRequired
            descriptiveText={
              <span
                className={length > SUPPORT_MESSAGE_MAX ? 'char-counter char-counter--over' : 'char-counter'}
                aria-live="polite"
              >
                {length}/{SUPPORT_MESSAGE_MAX} caratteri
              </span>
            }
          />
          <Flex>
            <Button type="submit" variation="primary" isLoading={busy} loadingText="Invio in corso…">
              Invia
            </Button>
          </Flex>
        </Flex>
      </form>
    </Flex>
  );
}
