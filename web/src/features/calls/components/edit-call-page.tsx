import { Flex, Heading, Button } from '@aws-amplify/ui-react';
import type { CallUpdate, LinkedFile } from '@domain/calls';
import { messages } from '@domain/messages';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/dialog';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { PageAlert, useFlashMessage } from '@/components/page-alert';
import { useApiMutation } from '@/lib/queries';
import { paths } from '@/config/paths';
import { deleteCallFile } from '../api/delete-call-file';
import { useCall } from '../api/get-call';
import { updateCall } from '../api/update-call';
import { CallForm, callToForm, type LoadCallChoices } from './call-form';
import { callDetailLink } from './calls-page';
import { FileList } from './file-viewer';

/**
 * /lista_bandi/dettaglio_sessione/modifica_sessione?sessionId={id}: the call's fields plus year and state;
 * new forms up to 5 minus those attached; each attached form can be deleted. Saving returns to the detail.
 */
export function EditCallPage({ loadChoices }: { loadChoices: LoadCallChoices }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('sessionId');
  const call = useCall(id);
  const remove = useApiMutation(deleteCallFile);
  const flash = useFlashMessage();
  const [toDelete, setToDelete] = useState<LinkedFile | null>(null);
  const loaded = call.data && call.data.id === id ? call.data : undefined;

  const confirmDelete = async () => {
    if (!toDelete || !loaded) return;
    const result = await remove.run(loaded.id, toDelete.storageFileId);
    setToDelete(null);
    if (result.ok) {
      flash.show('L’allegato è stato eliminato.', 'success');
      call.reload();
    } else flash.show(result.error.message, 'error');
  };

  let content;
  if (!id) content = <ErrorState message={messages.call.notFound} backTo={paths.calls} backLabel="Torna ai bandi" />;
  else if (call.error && !loaded)
    content = <ErrorState message={call.error.message} backTo={paths.calls} backLabel="Torna ai bandi" />;
  else if (!loaded) content = <LoadingState />;
  else
    content = (
      <>
        <section aria-labelledby="attached-title" className="call-section">
          <Heading level={2} id="attached-title">
            Moduli già allegati ({loaded.announcementFiles.length} di 5)
          </Heading>
          <FileList
            files={loaded.announcementFiles}
            label="Moduli già allegati"
            emptyText="Nessun modulo allegato."
            actions={(file) => (
              <Button
                size="small"
                colorTheme="error"
                aria-label={`Elimina ${file.name}`}
                onClick={() => setToDelete(file)}
              >
                Elimina
              </Button>
            )}
          />
        </section>
        <CallForm
          key={`${loaded.id}-${loaded.announcementFiles.length}`}
          mode="edit"
          initialValues={callToForm(loaded)}
          attached={loaded.announcementFiles.length}
          save={(input) => updateCall(loaded.id, input as CallUpdate)}
          onSaved={(saved) => navigate(callDetailLink(saved.id))}
          backTo={callDetailLink(loaded.id)}
          loadChoices={loadChoices}
        />
      </>
    );

  return (
    <Flex direction="column" gap="medium" maxWidth="48rem">
      <Heading level={1}>Modifica bando</Heading>
      <PageAlert key={flash.key} {...flash.props} />
      {content}
      <ConfirmDialog
        open={toDelete !== null}
        title="Elimina allegato"
        message={`Confermi di voler eliminare l’allegato «${toDelete?.name ?? ''}»?`}
        busy={remove.isRunning}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </Flex>
  );
}
