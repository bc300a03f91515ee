/**
 * The login screen's form parts: a labelled input with its error beside it, the password
 * field with show/hide, the address chip of the later steps, and the one shape every
 * "type the code" step has (authenticator, recovery code, code by email).
 */
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { LOGIN_INPUT_NAMES } from '../../shared/login-steps';
import { Icon } from '../kit/icons';
import { errorText, useT } from '../kit/i18n';
import type { LoginField, LoginState } from './login-machine';

/** One labelled input with its error next to it (aria-describedby, aria-invalid). */
export function Field(props: {
  label: string;
  name: string;
  type: string;
  field: LoginField;
  state: LoginState;
  autoComplete: string;
  defaultValue?: string;
  inputMode?: 'numeric' | 'email' | 'text';
  hint?: string;
  trailing?: ReactNode;
}) {
  const id = useId();
  const t = useT();
  const inputRef = useRef<HTMLInputElement>(null);
  const error = props.state.error?.field === props.field ? props.state.error : null;
  // A refused value takes the focus back, so the error beside it is read out next.
  useEffect(() => {
    if (error) inputRef.current?.focus();
  }, [error]);
  const describedBy = [error ? `${id}-error` : null, props.hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {props.label}
      </label>
      <div className="field-control">
        <input
          ref={inputRef}
          id={id}
          name={props.name}
          type={props.type}
          className="input"
          autoComplete={props.autoComplete}
          defaultValue={props.defaultValue}
          inputMode={props.inputMode}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          autoFocus
          required
          spellCheck={false}
          autoCapitalize="none"
        />
        {props.trailing}
      </div>
      {props.hint && (
        <p id={`${id}-hint`} className="field-hint">
          {props.hint}
        </p>
      )}
      {/* The error's line is kept even when empty, so one appearing moves nothing on the card. */}
      <div className="field-error-slot">
        {error && (
          <p id={`${id}-error`} className="field-error">
            <Icon name="spam" size={14} /> {error.hint ? t(error.hint) : errorText(t, { name: error.name ?? '', message: error.message })}
          </p>
        )}
      </div>
    </div>
  );
}

export function PasswordField({ state }: { state: LoginState }) {
  const [shown, setShown] = useState(false);
  const t = useT();
  return (
    <Field
      label={t('login.password')}
      name={LOGIN_INPUT_NAMES.password}
      type={shown ? 'text' : 'password'}
      field="password"
      state={state}
      autoComplete="current-password"
      trailing={
        <button type="button" className="field-toggle" aria-pressed={shown} onClick={() => setShown((value) => !value)}>
          {shown ? t('login.hidePassword') : t('login.showPassword')}
        </button>
      }
    />
  );
}

/** The address chosen on the first step, with a way back to change it. */
export function EmailChip({ email, onChange }: { email: string; onChange: () => void }) {
  const t = useT();
  return (
    <div className="email-chip">
      <span className="email-chip-address">{email}</span>
      <button type="button" className="link-button" onClick={onChange} aria-label={t('login.changeEmailLabel', { email })}>
        {t('login.changeEmail')}
      </button>
    </div>
  );
}

export function formValue(event: FormEvent<HTMLFormElement>, name: string): string {
  const value = new FormData(event.currentTarget).get(name);
  return typeof value === 'string' ? value : '';
}

/**
 * A step that asks for a code: the address chip (to change it), an optional notice, the code
 * field, Verify, and the step's other ways as link buttons.
 */
export function CodeStep(props: {
  state: LoginState;
  field: LoginField;
  name: string;
  label: string;
  hint: string;
  autoComplete: string;
  inputMode?: 'numeric';
  notice?: ReactNode;
  note?: ReactNode;
  ways: readonly { readonly label: string; readonly run: () => void }[];
  onCode: (code: string) => void;
  onChangeEmail: () => void;
}) {
  const t = useT();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    props.onCode(formValue(event, props.name));
  };
  return (
    <form className="login-form" noValidate onSubmit={submit}>
      <EmailChip email={props.state.email} onChange={props.onChangeEmail} />
      {props.notice}
      <Field
        label={props.label}
        name={props.name}
        type="text"
        field={props.field}
        state={props.state}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        hint={props.hint}
      />
      {props.note}
      <button type="submit" className="button button-primary button-block">
        {t('login.verify')}
      </button>
      {props.ways.map((way) => (
        <button key={way.label} type="button" className="link-button" onClick={way.run}>
          {way.label}
        </button>
      ))}
    </form>
  );
}
