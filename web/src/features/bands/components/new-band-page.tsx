import { useNavigate } from 'react-router';
import { useConfirmedForm } from '@/components/form-fields';
import { NewItemPage } from '@/components/new-item-page';
import { paths } from '@/config/paths';
import { createBand } from '../api/create-band';
import { bandFields, emptyBandForm, validateBandForm } from '../utils/band-form';
import { BandFields } from './band-fields';

/** /fasce/nuova_fascia: a new ISEE band, saved after the confirmation 'Inserimento nuova fascia ISEE'. */
export function NewBandPage() {
  const navigate = useNavigate();
  const form = useConfirmedForm({
    initialValues: emptyBandForm,
    fields: bandFields,
    validate: validateBandForm,
    save: createBand,
    onSaved: () => navigate(paths.bands),
  });
  return (
    <NewItemPage
      title="Nuova fascia ISEE"
      backTo={paths.bands}
      form={form}
      confirmTitle="Inserimento nuova fascia ISEE"
      confirmMessage="Confermi di voler inserire la nuova fascia ISEE?"
    >
      <BandFields values={form.values} errors={form.errors} onChange={form.setField} />
    </NewItemPage>
  );
}
