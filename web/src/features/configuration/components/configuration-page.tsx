import { Card, Flex, Heading, SelectField, Text, TextField } from '@aws-amplify/ui-react';
import { configurationFields, type ConfigurationField, type ConfigurationView } from '@domain/configuration';
import { EditableForm, useEditableForm } from '@/components/editable-form';
import { ErrorState } from '@/components/error-state';
import { readOnlyFieldProps } from '@/components/form-fields';
import { LoadingState } from '@/components/loading-state';
import { PageAlert, useFlashMessage } from '@/components/page-alert';
import { useConfiguration } from '../api/get-configuration';
import { updateConfiguration } from '../api/update-configuration';
import {
  configurationToForm,
  validateConfigurationForm,
  type ConfigurationFormErrors,
  type ConfigurationFormValues,
} from '../utils/configuration-form';
import { configurationIntro } from '../utils/configuration-texts';

const TITLE = 'Configurazione';
export const CONFIGURATION_SAVED = 'Configurazione salvata correttamente.';

/**
 * /configurazione (part 2 §2.15): the eight MyPay parameters, read-only until 'Modifica'; all eight are
 * required before the confirmation dialog opens. Before the first save the fields start open.
 */
export function ConfigurationPage() {
  const configuration = useConfiguration();
  // Here, not in the form: the form is mounted afresh with the saved values, the message stays.
  const flash = useFlashMessage();
  const saved = () => {
    flash.show(CONFIGURATION_SAVED, 'success');
    configuration.reload();
  };
  return (
    <Flex direction="column" gap="medium" maxWidth="56rem">
      <Heading level={1}>{TITLE}</Heading>
      <PageAlert key={flash.key} {...flash.props} />
      <Text>{configurationIntro()}</Text>
      {configuration.error && !configuration.data ? (
        <ErrorState message={configuration.error.message} />
      ) : !configuration.data ? (
        <LoadingState />
      ) : (
        <ConfigurationForm key={configuration.data.updatedAt ?? 'new'} view={configuration.data} onSaved={saved} />
      )}
    </Flex>
  );
}

function ConfigurationForm({ view, onSaved }: { view: ConfigurationView; onSaved: () => void }) {
  const form = useEditableForm({
    initialValues: configurationToForm(view.configuration),
    fields: configurationFields,
    validate: validateConfigurationForm,
    save: updateConfiguration,
    onSaved,
    startInEditMode: view.configuration === null,
  });
  return (
    <Card variation="outlined">
      {view.configuration === null && (
        <PageAlert
          variation="info"
          heading="Configurazione mancante"
          message="Compila tutti i campi: senza configurazione non è possibile generare il CSV per MyPay."
          autoHideMs={null}
          isDismissible={false}
        />
      )}
      <EditableForm
        form={form}
        label="Configurazione MyPay"
        confirmTitle="Modifica configurazione"
        confirmMessage="Confermi di voler salvare la configurazione di MyPay?"
      >
        <ConfigurationFields
          values={form.values}
          errors={form.errors}
          readOnly={!form.editing}
          onChange={form.setField}
        />
      </EditableForm>
    </Card>
  );
}

interface FieldsProps {
  values: ConfigurationFormValues;
  errors: ConfigurationFormErrors;
  readOnly: boolean;
  onChange: (field: ConfigurationField, value: string) => void;
}

function ConfigurationFields({ values, errors, readOnly, onChange }: FieldsProps) {
  const common = (field: ConfigurationField) => ({
    name: field,
    isRequired: true,
    hasError: Boolean(errors[field]),
    errorMessage: errors[field],
    value: values[field],
    onChange: (event: { target: { value: string } }) => onChange(field, event.target.value),
  });
  const text = (field: ConfigurationField) => ({
    ...common(field),
    ...readOnlyFieldProps(readOnly),
    autoComplete: 'off',
  });
  const select = (field: ConfigurationField) => ({ ...common(field), isDisabled: readOnly });
  const row = { direction: { base: 'column', medium: 'row' }, gap: 'medium' } as const;
  return (
    <Flex direction="column" gap="medium">
      <Flex {...row}>
        <SelectField {...select('azione')} label="Azione (azione)" placeholder="Seleziona un’azione" flex="1">
          <option value="I">I - Inserimento</option>
          <option value="M">M - Modifica</option>
          <option value="A">A - Annullamento</option>
        </SelectField>
        <SelectField {...select('flgGeneraIuv')} label="Genera IUV (flgGeneraIuv)" placeholder="Seleziona" flex="1">
          <option value="true">Sì (true)</option>
          <option value="false">No (false)</option>
        </SelectField>
      </Flex>
      <Flex {...row}>
        <TextField {...text('codUfficio')} label="Codice ufficio (codUfficio)" maxLength={64} flex="1" />
        <TextField {...text('codeConfig')} label="Codice configurazione (codeConfig)" maxLength={64} flex="1" />
      </Flex>
      <Flex {...row}>
        <TextField
          {...text('tipoDovuto')}
          label="Tipo dovuto (tipoDovuto)"
          descriptiveText="Il codice come è censito in MyPay per l’ente. Il portale non può verificare che in MyPay sia attivo: se non lo è, MyPay scarta le righe (file Scartati)."
          maxLength={64}
          flex="1"
        />
        <TextField {...text('tipoVersamento')} label="Tipo versamento (tipoVersamento)" maxLength={64} flex="1" />
      </Flex>
      <Flex {...row}>
        <SelectField
          {...select('tipoIdentificativoUnivoco')}
          label="Tipo identificativo univoco (tipoIdentificativoUnivoco)"
          placeholder="Seleziona"
          flex="1"
        >
          <option value="F">F - Persona fisica</option>
          <option value="G">G - Persona giuridica</option>
        </SelectField>
        <TextField
          {...text('datiSpecificiRiscossione')}
          label="Dati specifici riscossione (datiSpecificiRiscossione)"
          maxLength={140}
          flex="1"
        />
      </Flex>
    </Flex>
  );
}
