/**
 * The login screen: the step machine of login-machine.ts rendered as a card. Used for
 * the first login and, with `?add=1`, to add another account without logging out.
 */
import { getRouteApi, Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect, useId, useReducer, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { TernError } from '../../shared/errors';
import { LOGIN_INPUT_NAMES } from '../../shared/login-steps';
import { brand } from '../brand';
import { Icon } from '../app/icons';
import { RedirectToInbox } from '../app/Redirect';
import { useMailActions } from '../state/actions-context';
import { useSwitchAccount } from '../toolbar/switch-account';
import { accountsAtom, engineVersionAtom, loggedOutAtom } from '../state/atoms';
import { endedSessionsAtom, sessionEndedMessage } from '../state/ended-sessions';
import { initialLoginState, loginReducer, type LoginEvent, type LoginField, type LoginState } from './login-machine';

const loginRoute = getRouteApi('/login');

const TITLES: Record<LoginState['step'], string> = {
  SPLIT_LOGIN: 'Sign in',
  LOGGED_OUT: 'Sign in',
  LOGIN: 'Enter your password',
  AUTHENTICATOR: 'Two-step verification',
  RECOVERY_CODE: 'Use a recovery code',
  ALTERNATE_EMAIL: 'Confirm your alternate email',
  MULTI_COUNTRY_LOGIN_ERROR: 'Sign-in blocked',
  LOADER: 'Signing in',
  LOGIN_SUCCESS: 'Signed in',
};

/** One labelled input with its error next to it (aria-describedby, aria-invalid). */
function Field(props: {
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
            <Icon name="spam" size={14} /> {error.message}
          </p>
        )}
      </div>
    </div>
  );
}

function PasswordField({ state }: { state: LoginState }) {
  const [shown, setShown] = useState(false);
  return (
    <Field
      label="Password"
      name={LOGIN_INPUT_NAMES.password}
      type={shown ? 'text' : 'password'}
      field="password"
      state={state}
      autoComplete="current-password"
      trailing={
        <button type="button" className="field-toggle" aria-pressed={shown} onClick={() => setShown((value) => !value)}>
          {shown ? 'Hide' : 'Show'}
        </button>
      }
    />
  );
}

/** The address chosen on the first step, with a way back to change it. */
function EmailChip({ email, onChange }: { email: string; onChange: () => void }) {
  return (
    <div className="email-chip">
      <span className="email-chip-address">{email}</span>
      <button type="button" className="link-button" onClick={onChange} aria-label={`Use another email address than ${email}`}>
        Change
      </button>
    </div>
  );
}

function formValue(event: FormEvent<HTMLFormElement>, name: string): string {
  const value = new FormData(event.currentTarget).get(name);
  return typeof value === 'string' ? value : '';
}

export function LoginScreen() {
  const { add, email: suggestedEmail } = loginRoute.useSearch();
  const adding = add === '1';
  const accounts = useAtomValue(accountsAtom) ?? [];
  const loggedOut = useAtomValue(loggedOutAtom);
  const version = useAtomValue(engineVersionAtom);
  // Sessions the gateway ended whose address is not signed in again: said above the form, the newest one's address filled in.
  const ended = useAtomValue(endedSessionsAtom).filter((session) => !accounts.some((account) => account.emailAddress === session.emailAddress));
  const actions = useMailActions();
  const switchTo = useSwitchAccount();
  const [state, dispatch] = useReducer(loginReducer, { loggedOut: loggedOut && !adding, email: suggestedEmail ?? '' }, initialLoginState);
  // The newest ended session's address fills an empty email field, also when the engine tells after the screen opened:
  // the field is keyed on that address alone, so it remounts then and never while the person types or is checked.
  const endedEmail = ended[0]?.emailAddress ?? '';
  const stateRef = useRef(state);
  stateRef.current = state;
  const headingRef = useRef<HTMLHeadingElement>(null);

  // Each step change moves focus to its first field (autoFocus) or, with none, to the heading.
  useEffect(() => {
    if (!document.activeElement || document.activeElement === document.body) headingRef.current?.focus();
  }, [state.step]);

  useEffect(() => {
    if (loggedOut && state.step !== 'LOGGED_OUT') actions.clearLoggedOut();
  }, [loggedOut, state.step, actions]);

  /** Dispatches, asks the gateway about an address the email step checks, and sends the attempt when the event leads to LOADER. */
  function send(event: LoginEvent) {
    const next = loginReducer(stateRef.current, event);
    dispatch(event);
    const checking = next.checking;
    if (checking && checking !== stateRef.current.checking) {
      actions.checkAddress(checking).then(
        // Only if this is still the address asked about (not one typed and sent since).
        () => stateRef.current.checking === checking && send({ type: 'SUBMIT_EMAIL', email: checking, signedIn: accounts.map((account) => account.emailAddress) }),
        (error: TernError) => dispatch({ type: 'EMAIL_REFUSED', email: checking, error: { name: error.name, message: error.message } }),
      );
      return;
    }
    if (next.step !== 'LOADER' || !next.attempt || next.attempt === stateRef.current.attempt) return;
    actions.login(next.attempt).then(
      (result) => dispatch(result.kind === 'added' ? { type: 'LOGIN_SUCCEEDED' } : { type: 'LOGIN_CHALLENGED', step: result.step }),
      (error: TernError) => dispatch({ type: 'LOGIN_FAILED', error: { name: error.name, message: error.message } }),
    );
  }

  const done = state.step === 'LOGIN_SUCCESS' || (accounts.length > 0 && !adding && state.step !== 'LOADER');
  if (done) return <RedirectToInbox />;

  const submit = (build: (event: FormEvent<HTMLFormElement>) => LoginEvent) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    send(build(event));
  };

  const signedInAlready =
    state.error?.name === 'AccountAlreadySignedIn' ? accounts.find((account) => account.emailAddress.toLowerCase() === state.email.toLowerCase()) : undefined;

  let body: ReactNode;
  switch (state.step) {
    case 'SPLIT_LOGIN':
    case 'LOGGED_OUT':
      body = (
        <form
          className="login-form"
          noValidate
          onSubmit={submit((event) => ({ type: 'CHECK_EMAIL', email: formValue(event, 'email'), signedIn: accounts.map((account) => account.emailAddress) }))}
          aria-busy={state.checking ? true : undefined}
        >
          {state.step === 'LOGGED_OUT' && (
            <p className="login-notice" role="status">
              You have logged out of all accounts.
            </p>
          )}
          {ended.map((session) => (
            <p key={session.emailAddress} className="login-notice" role="status">
              {sessionEndedMessage(session)}
            </p>
          ))}
          <Field
            key={endedEmail}
            label="Email address"
            name="email"
            type="email"
            field="email"
            state={state}
            autoComplete="username"
            inputMode="email"
            defaultValue={state.email || endedEmail}
          />
          <button type="submit" className="button button-primary button-block" disabled={Boolean(state.checking)}>
            {state.checking ? 'Checking…' : 'Next'}
          </button>
          {signedInAlready && (
            // Adding an account already here: go to it rather than asking its password again.
            <button type="button" className="button button-secondary button-block" onClick={() => switchTo(signedInAlready.accountId)}>
              Switch to {signedInAlready.emailAddress}
            </button>
          )}
        </form>
      );
      break;
    case 'LOGIN':
      body = (
        <form className="login-form" noValidate onSubmit={submit((event) => ({ type: 'SUBMIT_PASSWORD', password: formValue(event, LOGIN_INPUT_NAMES.password) }))}>
          <EmailChip email={state.email} onChange={() => send({ type: 'CHANGE_EMAIL' })} />
          {/* Lets password managers pair the password with the address of the first step. */}
          <input type="email" name="email" autoComplete="username" value={state.email} readOnly hidden />
          <PasswordField state={state} />
          <button type="submit" className="button button-primary button-block">
            Sign in
          </button>
        </form>
      );
      break;
    case 'AUTHENTICATOR':
      body = (
        <form className="login-form" noValidate onSubmit={submit((event) => ({ type: 'SUBMIT_AUTH_CODE', code: formValue(event, LOGIN_INPUT_NAMES.authCode) }))}>
          <EmailChip email={state.email} onChange={() => send({ type: 'CHANGE_EMAIL' })} />
          <Field
            label="Verification code"
            name={LOGIN_INPUT_NAMES.authCode}
            type="text"
            field="authCode"
            state={state}
            autoComplete="one-time-code"
            inputMode="numeric"
            hint="Open your authenticator app and enter the code it shows for this account."
          />
          <button type="submit" className="button button-primary button-block">
            Verify
          </button>
          <button type="button" className="link-button" onClick={() => send({ type: 'USE_RECOVERY_CODE' })}>
            Use a recovery code instead
          </button>
        </form>
      );
      break;
    case 'RECOVERY_CODE':
      body = (
        <form className="login-form" noValidate onSubmit={submit((event) => ({ type: 'SUBMIT_RECOVERY_CODE', code: formValue(event, LOGIN_INPUT_NAMES.recoveryCode) }))}>
          <EmailChip email={state.email} onChange={() => send({ type: 'CHANGE_EMAIL' })} />
          <Field
            label="Recovery code"
            name={LOGIN_INPUT_NAMES.recoveryCode}
            type="text"
            field="recoveryCode"
            state={state}
            autoComplete="off"
            hint="Each recovery code works once."
          />
          <button type="submit" className="button button-primary button-block">
            Verify
          </button>
          <button type="button" className="link-button" onClick={() => send({ type: 'USE_AUTH_CODE' })}>
            Use your authenticator app instead
          </button>
        </form>
      );
      break;
    case 'ALTERNATE_EMAIL':
      body = (
        <form className="login-form" noValidate onSubmit={submit((event) => ({ type: 'SUBMIT_ALTERNATE_EMAIL', email: formValue(event, 'alternate_email') }))}>
          <EmailChip email={state.email} onChange={() => send({ type: 'CHANGE_EMAIL' })} />
          <Field
            label="Alternate email address"
            name="alternate_email"
            type="email"
            field="alternateEmail"
            state={state}
            autoComplete="email"
            inputMode="email"
            hint="The address you gave for recovering this account."
          />
          <button type="submit" className="button button-primary button-block">
            Continue
          </button>
        </form>
      );
      break;
    case 'MULTI_COUNTRY_LOGIN_ERROR':
      body = (
        <div className="login-form">
          <p className="login-blocked" role="alert">
            We stopped a sign-in to <strong>{state.email}</strong> from an unusual location. If it was you, try again from the network you
            usually use, or ask your administrator.
          </p>
          <button type="button" className="button button-primary button-block" onClick={() => send({ type: 'START_OVER' })}>
            Start over
          </button>
        </div>
      );
      break;
    case 'LOADER':
      body = (
        <div className="login-loader" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <span>Signing in to {state.email}…</span>
        </div>
      );
      break;
  }

  return (
    <main className="login-page">
      <div className="login-card" aria-busy={state.step === 'LOADER'}>
        <div className="login-brand">
          <img className="login-logo" src={`data:image/svg+xml,${encodeURIComponent(brand.logoSvg)}`} alt="" width={40} height={40} />
          <h1 className="login-brand-name">{brand.name}</h1>
        </div>
        <h2 className="login-title" ref={headingRef} tabIndex={-1} data-step={state.step}>
          {adding && (state.step === 'SPLIT_LOGIN' || state.step === 'LOGGED_OUT') ? 'Add another account' : TITLES[state.step]}
        </h2>
        {(state.step === 'SPLIT_LOGIN' || state.step === 'LOGGED_OUT') && (
          <p className="login-subtitle">{adding ? 'Your other accounts stay signed in.' : 'Use the address and password of your mail account.'}</p>
        )}
        <div key={state.step} className="login-step">
          {body}
        </div>
        {adding && accounts.length > 0 && state.step !== 'LOADER' && (
          <Link to="/mail/unified/$role" params={{ role: 'inbox' }} className="link-button login-cancel">
            Cancel and go back to your mail
          </Link>
        )}
      </div>
      {/* The engine's version is for tests and support (the attribute), not a line for the user. */}
      <footer className="login-footer" data-engine-version={version || undefined}>
        <p role="status" className="engine-status">
          {version ? '' : 'Starting the mail engine…'}
        </p>
      </footer>
    </main>
  );
}
