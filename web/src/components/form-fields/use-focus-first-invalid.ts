import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * After a failed submit, moves the focus to the first field marked invalid (`aria-invalid="true"`,
 * which Amplify's fields set from `hasError`). Attach `formRef` to the form and call
 * `focusFirstInvalid()` once the errors are in state.
 */
export function useFocusFirstInvalid<T extends HTMLElement = HTMLFormElement>() {
  const formRef = useRef<T>(null);
  const [request, setRequest] = useState(0);

  useEffect(() => {
    if (request === 0) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    first?.focus();
  }, [request]);

  const focusFirstInvalid = useCallback(() => setRequest((count) => count + 1), []);
  return { formRef, focusFirstInvalid };
}
