import { Button, Flex, Heading } from '@aws-amplify/ui-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface DialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  /** Buttons shown at the bottom; by default none. */
  actions?: ReactNode;
  /** Escape or the browser's cancel closes through this. */
  onClose: () => void;
  /** Wide enough for a document (the ISEE viewer). */
  wide?: boolean;
}

/** A modal dialog on the native <dialog> element: focus is trapped and restored by the browser. */
export function Dialog({ open, title, children, actions, onClose, wide = false }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className={wide ? 'portal-dialog portal-dialog--wide' : 'portal-dialog'}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <Flex direction="column" gap="medium">
          <Heading level={2} id={titleId} className="portal-dialog__title">
            {title}
          </Heading>
          <div>{children}</div>
          {actions && (
            <Flex justifyContent="flex-end" gap="small" wrap="wrap">
              {actions}
            </Flex>
          )}
        </Flex>
      )}
    </dialog>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}

/** The spec's confirmation dialogs: 'Conferma' and 'Annulla' throughout. */
export function ConfirmDialog({ open, title, message, onConfirm, onCancel, busy }: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      actions={
        <>
          <Button onClick={onCancel} isDisabled={busy}>
            Annulla
          </Button>
          <Button variation="primary" onClick={onConfirm} isLoading={busy} loadingText="Attendere...">
            Conferma
          </Button>
        </>
      }
    >
      {message}
    </Dialog>
  );
}
