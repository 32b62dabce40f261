import { useEffect, useRef, useState } from 'react';
import { useFlashMessage } from './page-alert';
import type { AsyncAction } from '@/lib/queries';

/**
 * The list pages' delete: ask with a confirmation dialog, delete, then show the outcome for 4 seconds —
 * on success reload the list and give the focus to the page title (the row and its button are gone); on a
 * refusal (e.g. a 409) show the server's Italian message.
 */
export function useConfirmedDelete<T extends { id: string }>(
  remove: AsyncAction<[string], unknown>,
  successMessage: string,
  reload: () => void,
) {
  const flash = useFlashMessage();
  const [toDelete, setToDelete] = useState<T | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [focusHeading, setFocusHeading] = useState(false);

  // After the commit that closed the dialog: the dialog's own effect (a child's, so it runs first) has
  // given the focus back to the row's button, which the reload is about to remove; the title takes it.
  useEffect(() => {
    if (!focusHeading) return;
    heading.current?.focus();
    setFocusHeading(false);
  }, [focusHeading]);

  const confirm = async () => {
    if (!toDelete) return;
    const result = await remove.run(toDelete.id);
    setToDelete(null);
    if (result.ok) {
      flash.show(successMessage, 'success');
      reload();
      setFocusHeading(true);
    } else {
      flash.show(result.error.message, 'error');
    }
  };

  return {
    flash,
    heading,
    toDelete,
    ask: setToDelete,
    cancel: () => setToDelete(null),
    confirm,
    busy: remove.isRunning,
  };
}

export type ConfirmedDelete<T extends { id: string }> = ReturnType<typeof useConfirmedDelete<T>>;
