import { Button, CheckboxField, Flex, Heading, TextField } from '@aws-amplify/ui-react';
import { operatorIseeUploadSchema } from '@domain/isee';
import { romeYear } from '@domain/period';
import { fieldErrors } from '@domain/validation';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useBreadcrumbQuery } from '@/components/breadcrumb-query';
import { ButtonLink } from '@/components/button-link';
import { ConfirmDialog } from '@/components/dialog';
import { AmountField, useFocusFirstInvalid } from '@/components/form-fields';
import { PageAlert } from '@/components/page-alert';
import { paths } from '@/config/paths';
import { toApiError } from '@/lib/api';
import { checkFile, uploadFile } from '@/lib/upload';
import { uploadUserIsee } from '../api/upload-user-isee';
import { nowForInput, valueFromText, yearFromText } from '../utils/isee-form';
import { FileField } from './file-field';

type Field = 'document' | 'value' | 'year' | 'date' | 'protocollo' | 'scadenza';

/** caricamento_ISEE_operatore?userId=: part 1 §2/§5, with 'Escludi verifica ISEE' and the defaults for year and date. */
export function OperatorIseeUploadPage() {
  const [params] = useSearchParams();
  const userId = params.get('userId') ?? '';
  useBreadcrumbQuery({ citizen: userId });
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [values, setValues] = useState({
    value: '',
    year: String(romeYear(new Date())),
    date: nowForInput(),
    protocollo: '',
    scadenza: '',
    exclude: false,
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const set = (field: keyof typeof values, value: string | boolean) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined, ...(field === 'exclude' ? { document: undefined } : {}) }));
  };

  const candidate = () => ({
    document: file ? { uploadKey: 'pending', name: file.name } : null,
    excludeVerification: values.exclude,
    value: valueFromText(values.value),
    year: yearFromText(values.year),
    date: values.date ? new Date(values.date).toISOString() : '',
    protocollo: values.protocollo,
    scadenza: values.scadenza,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Partial<Record<Field, string>> = {};
    const parsed = operatorIseeUploadSchema.safeParse(candidate());
    if (!parsed.success) Object.assign(next, fieldErrors(parsed.error));
    if (file) {
      const problem = checkFile(file);
      if (problem) next.document = problem;
    }
    if (Object.keys(next).length) {
      setErrors(next);
      focusFirstInvalid();
      return;
    }
    setAsking(true);
  };

  const save = async () => {
    setBusy(true);
    try {
      const document = file ? await uploadFile(file, 'isee') : null;
      const input = operatorIseeUploadSchema.parse({ ...candidate(), document });
      await uploadUserIsee(userId, input);
      navigate(`${paths.userRecord}?citizen=${encodeURIComponent(userId)}`);
    } catch (error) {
      const apiError = toApiError(error);
      setErrors(apiError.fieldErrors as Partial<Record<Field, string>>);
      setAlert(apiError.message);
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };

  return (
    <Flex direction="column" gap="medium" maxWidth="48rem">
      <Heading level={1}>Carica ISEE</Heading>
      <PageAlert message={alert} autoHideMs={null} onDismiss={() => setAlert(null)} />
      <form ref={formRef} onSubmit={submit} noValidate aria-label="Carica ISEE">
        <Flex direction="column" gap="medium">
          <FileField
            error={errors.document}
            required={!values.exclude}
            onChange={(f) => {
              setFile(f);
              setErrors((e) => ({ ...e, document: undefined }));
            }}
          />
          <CheckboxField
            name="excludeVerification"
            label="Escludi verifica ISEE"
            checked={values.exclude}
            onChange={(e) => set('exclude', e.target.checked)}
          />
          <Flex direction={{ base: 'column', medium: 'row' }} gap="medium">
            <AmountField
              name="value"
              label="Valore (€)"
              isRequired
              flex="1"
              value={values.value}
              onValueChange={(t) => set('value', t)}
              hasError={Boolean(errors.value)}
              errorMessage={errors.value}
            />
            <AmountField
              name="year"
              label="Anno"
              isRequired
              flex="1"
              value={values.year}
              onValueChange={(t) => set('year', t)}
              hasError={Boolean(errors.year)}
              errorMessage={errors.year}
            />
          </Flex>
          <Flex direction={{ base: 'column', medium: 'row' }} gap="medium">
            <TextField
              name="protocollo"
              label="Protocollo"
              isRequired
              flex="1"
              autoComplete="off"
              value={values.protocollo}
              onChange={(e) => set('protocollo', e.target.value)}
              hasError={Boolean(errors.protocollo)}
              errorMessage={errors.protocollo}
              descriptiveText="Es. INPS-ISEE-2026-00597381W-00"
            />
            <TextField
              name="scadenza"
              label="Scadenza"
              type="date"
              isRequired
              flex="1"
              value={values.scadenza}
              onChange={(e) => set('scadenza', e.target.value)}
              hasError={Boolean(errors.scadenza)}
              errorMessage={errors.scadenza}
            />
          </Flex>
          <TextField
            name="date"
            label="Data"
            type="datetime-local"
            isRequired
            value={values.date}
            onChange={(e) => set('date', e.target.value)}
            hasError={Boolean(errors.date)}
            errorMessage={errors.date}
          />
          <Flex gap="small" justifyContent="flex-end" wrap="wrap">
            <ButtonLink to={`${paths.userRecord}?citizen=${encodeURIComponent(userId)}`}>Indietro</ButtonLink>
            <Button type="submit" variation="primary" isDisabled={busy}>
              Conferma
            </Button>
          </Flex>
        </Flex>
      </form>
      <ConfirmDialog
        open={asking}
        title="Caricamento ISEE"
        message="Confermi di voler caricare l'ISEE?"
        busy={busy}
        onConfirm={() => void save()}
        onCancel={() => setAsking(false)}
      />
    </Flex>
  );
}
