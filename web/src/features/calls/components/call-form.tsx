import { bandLabel, type Band } from '@domain/bands';
import {
  callInputSchema,
  callStateLabels,
  canMoveCall,
  callUpdateSchema,
  defaultCallName,
  remainingCallFiles,
  type Call,
  type CallInput,
  type CallUpdate,
} from '@domain/calls';
import { fileMessages } from '@domain/files';
import { romeYear } from '@domain/period';
import type { Service } from '@domain/services';
import { fieldErrors } from '@domain/validation';
import { Button, CheckboxField, Flex, SelectField, Text, TextField } from '@aws-amplify/ui-react';
import { useId, useRef } from 'react';
import { BackAndConfirmButtons, ConfirmedForm } from '@/components/confirmed-form';
import { pickFieldErrors, useConfirmedForm, type FormValidation } from '@/components/form-fields';
import { PageAlert } from '@/components/page-alert';
import { platformFieldLabels } from '@/lib/platform';
import { useApiQuery } from '@/lib/queries';
import { checkFile, uploadFile } from '@/lib/upload';

export interface CallFormValues {
  serviceId: string;
  name: string;
  year: string;
  codAccertamento: string;
  codCapitolo: string;
  nomeMyPay: string;
  state: string;
  bandsId: string[];
  files: File[];
}
type Field = keyof CallFormValues;
const fields: readonly Field[] = [
  'serviceId',
  'name',
  'year',
  'state',
  'codAccertamento',
  'codCapitolo',
  'nomeMyPay',
  'bandsId',
  'files',
];

const ACCEPT = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';

/**
 * The services and bands a call is made of, to choose from: the app reads them from those features (the
 * calls feature does not import them) and hands the loader to the form's pages.
 */
export type LoadCallChoices = () => Promise<{ services: Service[]; bands: Band[] }>;

export const emptyCallForm = (serviceId = '', serviceName = ''): CallFormValues => ({
  serviceId,
  name: serviceName ? defaultCallName(serviceName) : '',
  year: String(romeYear(new Date())),
  codAccertamento: '',
  codCapitolo: '',
  nomeMyPay: '',
  state: '0',
  bandsId: [],
  files: [],
});

export const callToForm = (call: Call): CallFormValues => ({
  serviceId: call.serviceId,
  name: call.name,
  year: String(call.year),
  codAccertamento: call.codAccertamento,
  codCapitolo: call.codCapitolo,
  nomeMyPay: call.nomeMyPay,
  state: String(call.state),
  bandsId: call.bandsId,
  files: [],
});

/** The same schema the API applies; the files are checked here by type and size, then uploaded on save. */
export function validateCallForm(
  values: CallFormValues,
  mode: 'new' | 'edit',
  attached: number,
): FormValidation<Field, CallInput | CallUpdate> {
  const candidate = {
    ...values,
    year: values.year.trim() === '' ? undefined : Number(values.year),
    state: Number(values.state),
    files: [],
  };
  const result = (mode === 'new' ? callInputSchema : callUpdateSchema).safeParse(candidate);
  const errors = result.success ? {} : pickFieldErrors(fieldErrors(result.error), fields).errors;
  if (values.files.length > remainingCallFiles(attached)) errors.files = fileMessages.tooMany;
  else for (const file of values.files) errors.files ??= checkFile(file) ?? undefined;
  if (!result.success || errors.files) return { ok: false, errors };
  return { ok: true, input: result.data };
}

export interface CallFormProps {
  mode: 'new' | 'edit';
  initialValues: CallFormValues;
  /** Forms already attached (edit): 5 minus these may be added. */
  attached: number;
  save: (input: CallInput | CallUpdate) => Promise<Call>;
  onSaved: (call: Call) => void;
  backTo: string;
  loadChoices: LoadCallChoices;
}

/** New and edit call form (part 2 §2.12, §5), with the confirmation dialog. */
export function CallForm({ mode, initialValues, attached, save, onSaved, backTo, loadChoices }: CallFormProps) {
  const choices = useApiQuery(['calls', 'choices'], loadChoices);
  const fileInput = useRef<HTMLInputElement>(null);
  const bandsLegend = useId();
  const remaining = remainingCallFiles(attached);
  const nameTouched = useRef(mode === 'edit' || initialValues.name !== '');

  // The chosen files are uploaded (presigned POST) only after 'Conferma', then named in the API call.
  const chosenFiles = useRef<File[]>([]);
  const form = useConfirmedForm({
    initialValues,
    fields,
    validate: (values: CallFormValues) => {
      chosenFiles.current = values.files;
      return validateCallForm(values, mode, attached);
    },
    save: async (input: CallInput | CallUpdate): Promise<Call> => {
      const files: Array<{ uploadKey: string; name: string }> = [];
      for (const file of chosenFiles.current) files.push(await uploadFile(file, 'call-form'));
      return save({ ...input, files });
    },
    onSaved,
  });
  const { values, errors, setField } = form;

  const text = (
    field: 'name' | 'codAccertamento' | 'codCapitolo' | 'nomeMyPay',
    label: string,
    descriptiveText?: string,
  ) => (
    <TextField
      name={field}
      label={label}
      descriptiveText={descriptiveText}
      isRequired
      value={values[field]}
      hasError={Boolean(errors[field])}
      errorMessage={errors[field]}
      autoComplete="off"
      onChange={(event) => {
        if (field === 'name') nameTouched.current = true;
        setField(field, event.target.value);
      }}
    />
  );

  const chooseService = (serviceId: string) => {
    setField('serviceId', serviceId);
    const service = choices.data?.services.find((s) => s.id === serviceId);
    if (service && !nameTouched.current) setField('name', defaultCallName(service.name));
  };

  const addFiles = (list: FileList | null) => {
    const chosen = [...values.files, ...Array.from(list ?? [])];
    setField('files', chosen);
    if (fileInput.current) fileInput.current.value = '';
  };

  return (
    <>
      {choices.error && <PageAlert message={choices.error.message} autoHideMs={null} />}
      <ConfirmedForm
        form={form}
        label={mode === 'new' ? 'Nuovo bando' : 'Modifica bando'}
        confirmTitle={mode === 'new' ? 'Inserimento nuovo bando' : 'Modifica bando'}
        confirmMessage={
          mode === 'new' ? 'Confermi di voler inserire il nuovo bando?' : 'Confermi di voler modificare il bando?'
        }
        actions={<BackAndConfirmButtons backTo={backTo} isSaving={form.isSaving} />}
      >
        <SelectField
          name="serviceId"
          label="Servizio"
          isRequired
          placeholder="Seleziona un servizio"
          value={values.serviceId}
          hasError={Boolean(errors.serviceId)}
          errorMessage={errors.serviceId}
          onChange={(event) => chooseService(event.target.value)}
        >
          {(choices.data?.services ?? []).map((service) => (
            <option key={service.id} value={service.id}>
              {service.name}
            </option>
          ))}
        </SelectField>
        {text(
          'name',
          'Nome del bando',
          mode === 'new' ? 'Proposto: il nome del servizio e l’anno in corso.' : undefined,
        )}
        <Flex gap="medium" wrap="wrap">
          <TextField
            name="year"
            label="Anno"
            isRequired={mode === 'edit'}
            inputMode="numeric"
            maxLength={4}
            width="10rem"
            value={values.year}
            hasError={Boolean(errors.year)}
            errorMessage={errors.year}
            onChange={(event) => setField('year', event.target.value.replace(/\D/g, ''))}
          />
          {mode === 'edit' && (
            <SelectField
              name="state"
              label="Stato"
              isRequired
              value={values.state}
              hasError={Boolean(errors.state)}
              errorMessage={errors.state}
              onChange={(event) => setField('state', event.target.value)}
            >
              {Object.entries(callStateLabels)
                .filter(([value]) => canMoveCall(Number(initialValues.state), Number(value)))
                .map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
            </SelectField>
          )}
        </Flex>
        {text('codAccertamento', 'Codice accertamento')}
        {text('codCapitolo', 'Codice capitolo')}
        {text('nomeMyPay', platformFieldLabels().callName, 'Il nome del bando sulla piattaforma dei pagamenti.')}

        <fieldset className="form-fieldset" aria-describedby={errors.bandsId ? `${bandsLegend}-error` : undefined}>
          <legend id={bandsLegend}>Fasce ISEE del bando</legend>
          {(choices.data?.bands ?? []).length === 0 && !choices.isLoading && <Text>Non sono presenti range</Text>}
          {(choices.data?.bands ?? []).map((band) => (
            <CheckboxField
              key={band.id}
              name="bandsId"
              value={band.id}
              label={bandLabel(band)}
              checked={values.bandsId.includes(band.id)}
              onChange={(event) => {
                const checked = event.target.checked;
                setField('bandsId', (chosen) =>
                  checked ? [...chosen, band.id] : chosen.filter((id) => id !== band.id),
                );
              }}
            />
          ))}
          {errors.bandsId && (
            <Text id={`${bandsLegend}-error`} className="form-error">
              {errors.bandsId}
            </Text>
          )}
        </fieldset>

        <fieldset className="form-fieldset">
          <legend>Moduli allegati</legend>
          {remaining === 0 ? (
            <Text role="status">{fileMessages.tooMany} Elimina un allegato per caricarne un altro.</Text>
          ) : (
            <>
              <Text className="form-hint" id="call-files-hint">
                {mode === 'edit'
                  ? `Puoi aggiungere ancora ${remaining} ${remaining === 1 ? 'modulo' : 'moduli'}`
                  : 'Fino a 5 moduli'}{' '}
                in formato PDF, JPEG o PNG, di 10 MB al massimo ciascuno.
              </Text>
              <input
                ref={fileInput}
                id="call-files"
                name="files"
                type="file"
                multiple
                accept={ACCEPT}
                aria-label="Scegli i moduli da allegare"
                aria-describedby="call-files-hint"
                aria-invalid={Boolean(errors.files)}
                onChange={(event) => addFiles(event.target.files)}
              />
            </>
          )}
          {values.files.length > 0 && (
            <ul className="file-list" aria-label="Moduli da caricare">
              {values.files.map((file, index) => (
                <li key={`${file.name}-${index}`} className="file-list__item">
                  <span className="file-list__name">{file.name}</span>
                  <Button
                    size="small"
                    aria-label={`Togli ${file.name}`}
                    onClick={() =>
                      setField(
                        'files',
                        values.files.filter((_, i) => i !== index),
                      )
                    }
                  >
                    Togli
                  </Button>
                </li>
              ))}
            </ul>
          )}
          {errors.files && (
            <Text className="form-error" role="alert">
              {errors.files}
            </Text>
          )}
        </fieldset>
      </ConfirmedForm>
    </>
  );
}
