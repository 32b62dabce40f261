import { Button, Card, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { inpsMessages } from '@domain/inps';
import { citizenIseeUploadSchema, type InpsFetchResult } from '@domain/isee';
import { fileMessages } from '@domain/files';
import { fieldErrors } from '@domain/validation';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { RestrictedTextField, useFocusFirstInvalid } from '@/components/form-fields';
import { PageAlert } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { ApiError, toApiError } from '@/lib/api';
import { checkFile, uploadFile } from '@/lib/upload';
import { fetchMyIseeFromInps } from '../api/inps';
import { uploadMyIsee } from '../api/upload-my-isee';
import { acceptCitizenValue, valueFromText } from '../utils/isee-form';
import { FileField } from './file-field';

/** Spec part 2 §9: home 4 s after a successful upload. */
const REDIRECT_MS = 4000;

/**
 * /caricamento_ISEE: first 'Recupera il mio ISEE da INPS' (issue 24: the attestation valid today, through PDND,
 * accepted at once without omissions), with what the council asks INPS and why; then, as the alternative,
 * the attestation's upload (jpeg, jpg, png, pdf) and its value. Either invalidates the previous ISEE.
 */
export function CitizenIseeUploadPage() {
  const navigate = useNavigate();
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => navigate(paths.home), REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);
  return (
    <Flex direction="column" gap="large" maxWidth="44rem">
      <Heading level={1}>Caricamento ISEE</Heading>
      <FromInps onDone={() => setDone(true)} />
      <Upload done={done} onDone={() => setDone(true)} />
    </Flex>
  );
}

/** 'Recupera il mio ISEE da INPS': what INPS answered, in the citizen's words; home after 4 s once an ISEE is recorded. */
function FromInps({ onDone }: { onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<InpsFetchResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fetchFromInps = async () => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const answer = await fetchMyIseeFromInps();
      setResult(answer);
      if (answer.outcome !== 'NOT_FOUND') onDone();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : inpsMessages.retryLater);
    } finally {
      setBusy(false);
    }
  };
  const found = result && result.outcome !== 'NOT_FOUND';
  return (
    <Card variation="outlined">
      <Flex direction="column" gap="small">
        <Heading level={2}>Recupera il mio ISEE da INPS</Heading>
        <Text>{inpsMessages.notice}</Text>
        <PageAlert message={error} autoHideMs={null} onDismiss={() => setError(null)} />
        {result && (
          <PageAlert
            variation={result.outcome === 'NOT_FOUND' ? 'warning' : result.outcome === 'REVIEW' ? 'info' : 'success'}
            heading={result.outcome === 'NOT_FOUND' ? 'Nessun ISEE valido presso INPS' : 'ISEE recuperato da INPS'}
            message={found ? `${result.message} Tra pochi secondi tornerai alla pagina iniziale.` : result.message}
            autoHideMs={null}
            isDismissible={!found}
            onDismiss={() => setResult(null)}
          />
        )}
        <Flex>
          <Button
            variation="primary"
            isLoading={busy}
            loadingText="Richiesta a INPS in corso..."
            isDisabled={!!found}
            onClick={() => void fetchFromInps()}
          >
            Recupera il mio ISEE da INPS
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}

/** The upload of the attestation: the alternative to INPS. */
function Upload({ done, onDone }: { done: boolean; onDone: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<{ document?: string; value?: string }>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [uploaded, setUploaded] = useState(false);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    const next: typeof errors = {};
    if (!file) next.document = fileMessages.missing;
    else next.document = checkFile(file) ?? undefined;
    const parsed = citizenIseeUploadSchema.safeParse({
      document: { uploadKey: 'x', name: 'x' },
      value: valueFromText(value),
    });
    if (!parsed.success) next.value = fieldErrors(parsed.error).value;
    if (next.document || next.value) {
      setErrors(next);
      focusFirstInvalid();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const document = await uploadFile(file!, 'isee');
      await uploadMyIsee({ document, value: valueFromText(value)! });
      setUploaded(true);
      onDone();
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.fieldErrors.value) setErrors({ value: apiError.fieldErrors.value });
      else setAlert(apiError.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card variation="outlined">
      <Flex direction="column" gap="medium">
        <Heading level={2}>Oppure carica l’attestazione</Heading>
        <Text>
          Carica l’attestazione ISEE rilasciata dall’INPS (PDF o foto JPEG/PNG) e indica il valore dell’ISEE ordinario.
          Il nuovo ISEE sostituisce quello caricato in precedenza e sarà verificato dagli operatori.
        </Text>
        <PageAlert message={alert} autoHideMs={null} onDismiss={() => setAlert(null)} />
        {uploaded && (
          <PageAlert
            variation="success"
            message="ISEE caricato correttamente: tra pochi secondi tornerai alla pagina iniziale."
            autoHideMs={null}
            isDismissible={false}
          />
        )}
        <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate aria-label="Caricamento ISEE">
          <Flex direction="column" gap="medium">
            <FileField
              error={errors.document}
              onChange={(f) => {
                setFile(f);
                setErrors((e) => ({ ...e, document: undefined }));
              }}
              disabled={busy || done}
            />
            <RestrictedTextField
              name="value"
              label="Valore ISEE (€)"
              descriptiveText="Solo cifre, con la virgola per i decimali (al massimo due), es. 12345,67."
              isRequired
              inputMode="decimal"
              value={value}
              filter={acceptCitizenValue}
              onValueChange={(text) => {
                setValue(text);
                setErrors((e) => ({ ...e, value: undefined }));
              }}
              hasError={Boolean(errors.value)}
              errorMessage={errors.value}
              isDisabled={done}
            />
            <Flex justifyContent="flex-end">
              <Button
                type="submit"
                variation="primary"
                isLoading={busy}
                loadingText="Caricamento in corso..."
                isDisabled={done}
              >
                Carica
              </Button>
            </Flex>
          </Flex>
        </form>
      </Flex>
    </Card>
  );
}
