import type { ReactNode } from 'react';

/**
 * A field's or a form's error, read out as soon as it shows (role alert). It renders nothing
 * while there is no error, so a form writes `<FieldError>{failed && reason}</FieldError>`.
 */
export function FieldError({ id, children }: { id?: string; children: ReactNode }) {
  if (children === null || children === undefined || children === false || children === '') return null;
  return (
    <p id={id} className="field-error" role="alert">
      {children}
    </p>
  );
}
