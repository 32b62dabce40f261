import { Flex, Text } from '@aws-amplify/ui-react';
import { useId } from 'react';

/** A native file input for the ISEE document (jpeg, jpg, png, pdf), with its label and error. */
export function FileField({
  error,
  onChange,
  disabled,
  required = true,
}: {
  error?: string;
  onChange: (file: File | null) => void;
  disabled?: boolean;
  required?: boolean;
}) {
  const id = useId();
  return (
    <Flex direction="column" gap="xxs" className={`amplify-field${error ? ' amplify-field--error' : ''}`}>
      <label htmlFor={id} className="amplify-label">
        Documento ISEE{required ? ' *' : ''}
      </label>
      <Text as="span" id={`${id}-hint`} className="amplify-field__description" fontSize="small">
        Formati accettati: PDF, JPEG, JPG, PNG (massimo 10 MB).
      </Text>
      <input
        id={id}
        name="document"
        type="file"
        accept="application/pdf,image/jpeg,image/jpg,image/png,.pdf,.jpg,.jpeg,.png"
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        aria-invalid={error ? 'true' : undefined}
        aria-required={required}
        disabled={disabled}
        onChange={(event) => onChange(event.target.files?.[0] ?? null)}
      />
      {error && (
        <Text as="span" id={`${id}-error`} className="amplify-field__error-message" color="font.error">
          {error}
        </Text>
      )}
    </Flex>
  );
}
