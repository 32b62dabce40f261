import { Button, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { citizenIseeUploadSchema } from '@domain/isee';
import { fileMessages } from '@domain/files';
import { fieldErrors } from '@domain/validation';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { RestrictedTextField, useFocusFirstInvalid } from '@/components/form-fields';
import { PageAlert } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api';
import { checkFile, uploadFile } from '@/lib/upload';
import { uploadMyIsee } from '../api/upload-my-isee';
import { acceptCitizenValue, valueFromText } from '../utils/isee-form';
import { FileField } from './file-field';

/** Spec part 2 §9: home 4 s after a successful upload. */
const REDIRECT_MS = 4000;

/** /caricamento_ISEE: the attestation (jpeg, jpg, png, pdf) and its value; a new upload invalidates the previous ISEE. */
export function CitizenIseeUploadPage() {
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<{ document?: string; value?: string }>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => navigate(paths.home), REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    const next: typeof errors = {};
    if (!file) next.document = fileMessages.missing;
    else next.document = checkFile(file) ?? undefined;
    const parsed = citizenIseeUploadSchema.safeParse({ document: { uploadKey: 'x', name: 'x' }, value: valueFromText(value) });
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
      setDone(true);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError(0, 'Oops qualcosa è andato storto. Riprova più tardi!');
      if (apiError.fieldErrors.value) setErrors({ value: apiError.fieldErrors.value });
      else setAlert(apiError.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex direction="column" gap="medium" maxWidth="40rem">
      <Heading level={1}>Caricamento ISEE</Heading>
      <Text>Carica l’attestazione ISEE rilasciata dall’INPS (PDF o foto JPEG/PNG) e indica il valore dell’ISEE ordinario. Il nuovo ISEE sostituisce quello caricato in precedenza e sarà verificato dagli operatori.</Text>
      <PageAlert message={alert} autoHideMs={null} onDismiss={() => setAlert(null)} />
      {done && <PageAlert variation="success" message="ISEE caricato correttamente: tra pochi secondi tornerai alla pagina iniziale." autoHideMs={null} isDismissible={false} />}
      <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate aria-label="Caricamento ISEE">
        <Flex direction="column" gap="medium">
          <FileField error={errors.document} onChange={(f) => { setFile(f); setErrors((e) => ({ ...e, document: undefined })); }} disabled={busy || done} />
          <RestrictedTextField
            name="value"
            label="Valore ISEE (€)"
            descriptiveText="Solo cifre, con la virgola per i decimali (al massimo due), es. 12345,67."
            isRequired
            inputMode="decimal"
            value={value}
            filter={acceptCitizenValue}
            onValueChange={(text) => { setValue(text); setErrors((e) => ({ ...e, value: undefined })); }}
            hasError={Boolean(errors.value)}
            errorMessage={errors.value}
            isDisabled={done}
          />
          <Flex justifyContent="flex-end">
            <Button type="submit" variation="primary" isLoading={busy} loadingText="Caricamento in corso..." isDisabled={done}>
              Carica
            </Button>
          </Flex>
        </Flex>
      </form>
    </Flex>
  );
}
