import { Button, Flex, Heading } from '@aws-amplify/ui-react';
import type { Band } from '@domain/bands';
import { messages } from '@domain/messages';
import { useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ButtonLink } from '@/components/button-link';
import { ConfirmDialog } from '@/components/dialog';
import { ErrorState } from '@/components/error-state';
import { useConfirmedForm } from '@/components/form-fields';
import { LoadingState } from '@/components/loading-state';
import { PageAlert } from '@/components/page-alert';
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

  let content;
  if (!id) content = <ErrorState message={messages.band.notFound} backTo={paths.bands} backLabel="Torna alle fasce ISEE" />;
  else if (band.error) content = <ErrorState message={band.error.message} backTo={paths.bands} backLabel="Torna alle fasce ISEE" />;
  else if (!band.data || band.data.id !== id) content = <LoadingState />;
  else content = <EditBandForm key={band.data.id} band={band.data} />;

  return (
    <Flex direction="column" gap="medium" maxWidth="48rem">
      <Heading level={1}>{TITLE}</Heading>
      {content}
    </Flex>
  );
}

function EditBandForm({ band }: { band: Band }) {
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const form = useConfirmedForm({
    initialValues: bandToForm(band),
    fields: bandFields,
    validate: validateBandForm,
    save: (input) => updateBand(band.id, input),
    onSaved: () => navigate(paths.bands),
  });

  const startEditing = () => {
    setEditing(true);
    // The 'Modifica' button goes away: the first field takes the focus.
    requestAnimationFrame(() => form.formRef.current?.querySelector<HTMLInputElement>('input')?.focus());
  };
  const stopEditing = () => {
    form.reset(bandToForm(band));
    setEditing(false);
    requestAnimationFrame(() => editButton.current?.focus());
  };

  return (
    <>
      <PageAlert {...form.alert} />
      <form ref={form.formRef} onSubmit={form.onSubmit} noValidate aria-label={TITLE}>
        <Flex direction="column" gap="large">
          <BandFields values={form.values} errors={form.errors} readOnly={!editing} onChange={form.setField} />
          <Flex gap="small" justifyContent="flex-end" wrap="wrap">
            {editing ? (
              <>
                {/* Keys: React must not turn the clicked 'Modifica' button into this submit button (it would submit). */}
                <Button key="back" onClick={stopEditing} isDisabled={form.isSaving}>
                  Indietro
                </Button>
                <Button key="confirm" type="submit" variation="primary" isDisabled={form.isSaving}>
                  Conferma
                </Button>
              </>
            ) : (
              <>
                <ButtonLink key="list" to={paths.bands}>
                  Indietro
                </ButtonLink>
                <Button key="edit" ref={editButton} variation="primary" onClick={startEditing}>
                  Modifica
                </Button>
              </>
            )}
          </Flex>
        </Flex>
      </form>
      <ConfirmDialog {...form.confirm} title={TITLE} message="Confermi di voler modificare la fascia ISEE?" />
    </>
  );
}
