import { useNavigate } from 'react-router';
import { useConfirmedForm } from '@/components/form-fields';
import { NewItemPage } from '@/components/new-item-page';
import { paths } from '@/config/paths';
import { createService } from '../api/create-service';
import { emptyServiceForm, serviceFields, validateServiceForm } from '../utils/service-form';
import { ServiceFields } from './service-fields';

/** /servizi/nuovo_servizio: a new service, saved after the confirmation 'Inserimento nuovo servizio'. */
export function NewServicePage() {
  const navigate = useNavigate();
  const form = useConfirmedForm({
    initialValues: emptyServiceForm,
    fields: serviceFields,
    validate: validateServiceForm,
    save: createService,
    onSaved: () => navigate(paths.services),
  });
  return (
    <NewItemPage
      title="Nuovo servizio"
      backTo={paths.services}
      form={form}
      confirmTitle="Inserimento nuovo servizio"
      confirmMessage="Confermi di voler inserire il nuovo servizio?"
    >
      <ServiceFields values={form.values} errors={form.errors} onChange={form.setField} />
    </NewItemPage>
  );
}
