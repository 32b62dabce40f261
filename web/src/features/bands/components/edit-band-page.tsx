import { Flex, Heading } from '@aws-amplify/ui-react';
import type { Band } from '@domain/bands';
import { messages } from '@domain/messages';
import { useNavigate, useSearchParams } from 'react-router';
import { EditableForm, useEditableForm } from '@/components/editable-form';
import { RecordContent } from '@/components/record-content';
import { paths } from '@/config/paths';
import { useBand } from '../api/get-band';
import { updateBand } from '../api/update-band';
import { bandFields, bandToForm, validateBandForm } from '../utils/band-form';
import { BandFields } from './band-fields';

const TITLE = 'Modifica fascia ISEE';

/**
 * /fasce/modifica_fascia?range={id}: the band, read-only until 'Modifica'; then 'Indietro' discards
 * the changes and 'Conferma' saves after the dialog 'Modifica fascia ISEE'.
 */
export function EditBandPage() {
  const [params] = useSearchParams();
  const id = params.get('range');
  const band = useBand(id);
  return (
    <Flex direction="column" gap="medium" maxWidth="48rem">
      <Heading level={1}>{TITLE}</Heading>
      <RecordContent
        id={id}
        record={band}
        missingMessage={messages.band.notFound}
        backTo={paths.bands}
        backLabel="Torna alle fasce ISEE"
      >
        {(loaded) => <EditBandForm key={loaded.id} band={loaded} />}
      </RecordContent>
    </Flex>
  );
}

function EditBandForm({ band }: { band: Band }) {
  const navigate = useNavigate();
  const form = useEditableForm({
    initialValues: bandToForm(band),
    fields: bandFields,
    validate: validateBandForm,
    save: (input) => updateBand(band.id, input),
    onSaved: () => navigate(paths.bands),
  });
  return (
    <EditableForm
      form={form}
      label={TITLE}
      backTo={paths.bands}
      confirmTitle={TITLE}
      confirmMessage="Confermi di voler modificare la fascia ISEE?"
    >
      <BandFields values={form.values} errors={form.errors} readOnly={!form.editing} onChange={form.setField} />
    </EditableForm>
  );
}
