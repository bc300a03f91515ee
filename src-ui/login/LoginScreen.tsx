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
import { Icon } from '../kit/icons';
import { formatPhrase } from '../../shared/strings';
import { errorText, useLocale, useT, type MessageId } from '../kit/i18n';
import { RedirectToCompose, RedirectToInbox } from '../kit/Redirect';
import { useMailActions } from '../state/actions-context';
import { useSwitchAccount } from '../state/switch-account';
import { accountsAtom, engineVersionAtom, loggedOutAtom } from '../state/atoms';
import { endedSessionsAtom, sessionEndedMessage } from '../state/ended-sessions';
import { initialLoginState, loginReducer, type LoginEvent, type LoginField, type LoginState } from './login-machine';

const loginRoute = getRouteApi('/login');

const TITLES: Record<LoginState['step'], MessageId> = {
  SPLIT_LOGIN: 'login.titleSignIn',
  LOGGED_OUT: 'login.titleSignIn',
  LOGIN: 'login.titlePassword',
  AUTHENTICATOR: 'login.titleAuthenticator',
  RECOVERY_CODE: 'login.titleRecoveryCode',
  ALTERNATE_EMAIL: 'login.titleAlternateEmail',
  MULTI_COUNTRY_LOGIN_ERROR: 'login.titleUnusualPlace',
  LOADER: 'login.titleSigningIn',
  LOGIN_SUCCESS: 'login.titleSignedIn',
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

function PasswordField({ state }: { state: LoginState }) {
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
function EmailChip({ email, onChange }: { email: string; onChange: () => void }) {
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

function formValue(event: FormEvent<HTMLFormElement>, name: string): string {
  const value = new FormData(event.currentTarget).get(name);
  return typeof value === 'string' ? value : '';
}

export function LoginScreen() {
  const { add, email: suggestedEmail, compose } = loginRoute.useSearch();
  const adding = add === '1';
  const accounts = useAtomValue(accountsAtom) ?? [];
  const loggedOut = useAtomValue(loggedOutAtom);
  const version = useAtomValue(engineVersionAtom);
  // Sessions the gateway ended whose address is not signed in again: said above the form, the newest one's address filled in.
  const ended = useAtomValue(endedSessionsAtom).filter((session) => !accounts.some((account) => account.emailAddress === session.emailAddress));
  const actions = useMailActions();
  const t = useT();
  const locale = useLocale();
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
      (result) =>
        dispatch(
          result.kind === 'added'
            ? { type: 'LOGIN_SUCCEEDED' }
            : { type: 'LOGIN_CHALLENGED', step: result.step, ...(result.sentTo ? { sentTo: result.sentTo } : {}), ...(result.canUseEmail ? { canUseEmail: true } : {}) },
        ),
      (error: TernError) => dispatch({ type: 'LOGIN_FAILED', error: { name: error.name, message: error.message } }),
    );
  }

  const done = state.step === 'LOGIN_SUCCESS' || (accounts.length > 0 && !adding && state.step !== 'LOADER');
  // A mailto: link that met the login screen opens its composer now (engine/first-screen.ts loginSearchFrom).
  if (done) return compose ? <RedirectToCompose query={compose} /> : <RedirectToInbox />;

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
              {t('login.loggedOutAll')}
            </p>
          )}
          {ended.map((session) => (
            <p key={session.emailAddress} className="login-notice" role="status">
              {formatPhrase(locale, sessionEndedMessage(session))}
            </p>
          ))}
          <Field
            key={endedEmail}
            label={t('login.emailAddress')}
            name="email"
            type="email"
            field="email"
            state={state}
            autoComplete="username"
            inputMode="email"
            defaultValue={state.email || endedEmail}
          />
          <button type="submit" className="button button-primary button-block" disabled={Boolean(state.checking)}>
            {state.checking ? t('login.checking') : t('login.next')}
          </button>
          {signedInAlready && (
            // Adding an account already here: go to it rather than asking its password again.
            <button type="button" className="button button-secondary button-block" onClick={() => switchTo(signedInAlready.accountId)}>
              {t('login.switchTo', { email: signedInAlready.emailAddress })}
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
            {t('login.signIn')}
          </button>
        </form>
      );
      break;
    case 'AUTHENTICATOR':
      body = (
        <form className="login-form" noValidate onSubmit={submit((event) => ({ type: 'SUBMIT_AUTH_CODE', code: formValue(event, LOGIN_INPUT_NAMES.authCode) }))}>
          <EmailChip email={state.email} onChange={() => send({ type: 'CHANGE_EMAIL' })} />
          <Field
            label={t('login.verificationCode')}
            name={LOGIN_INPUT_NAMES.authCode}
            type="text"
            field="authCode"
            state={state}
            autoComplete="one-time-code"
            inputMode="numeric"
            hint={t('login.verificationHint')}
          />
          <button type="submit" className="button button-primary button-block">
            {t('login.verify')}
          </button>
          <button type="button" className="link-button" onClick={() => send({ type: 'USE_RECOVERY_CODE' })}>
            {t('login.useRecoveryCode')}
          </button>
          {state.canUseEmail && (
            <button type="button" className="link-button" onClick={() => send({ type: 'SEND_EMAIL_CODE' })}>
              {t('login.lostAuthenticator')}
            </button>
          )}
        </form>
      );
      break;
    case 'RECOVERY_CODE':
      body = (
        <form className="login-form" noValidate onSubmit={submit((event) => ({ type: 'SUBMIT_RECOVERY_CODE', code: formValue(event, LOGIN_INPUT_NAMES.recoveryCode) }))}>
          <EmailChip email={state.email} onChange={() => send({ type: 'CHANGE_EMAIL' })} />
          <Field
            label={t('login.recoveryCode')}
            name={LOGIN_INPUT_NAMES.recoveryCode}
            type="text"
            field="recoveryCode"
            state={state}
            autoComplete="off"
            hint={t('login.recoveryHint')}
          />
          <button type="submit" className="button button-primary button-block">
            {t('login.verify')}
          </button>
          <button type="button" className="link-button" onClick={() => send({ type: 'USE_AUTH_CODE' })}>
            {t('login.useAuthenticator')}
          </button>
          {state.canUseEmail && (
            <button type="button" className="link-button" onClick={() => send({ type: 'SEND_EMAIL_CODE' })}>
              {t('login.lostAuthenticator')}
            </button>
          )}
        </form>
      );
      break;
    case 'ALTERNATE_EMAIL':
    case 'MULTI_COUNTRY_LOGIN_ERROR':
      body = state.sentTo ? (
        <form className="login-form" noValidate onSubmit={submit((event) => ({ type: 'SUBMIT_EMAIL_CODE', code: formValue(event, 'email_code') }))}>
          <EmailChip email={state.email} onChange={() => send({ type: 'CHANGE_EMAIL' })} />
          {state.step === 'MULTI_COUNTRY_LOGIN_ERROR' && (
            <p className="login-notice" role="status">
              {t('login.unusualPlace')}
            </p>
          )}
          <Field
            label={t('login.emailCode')}
            name="email_code"
            type="text"
            field="emailCode"
            state={state}
            autoComplete="one-time-code"
            inputMode="numeric"
            hint={t('login.emailCodeSent', { address: state.sentTo })}
          />
          {state.step === 'ALTERNATE_EMAIL' && <p className="field-hint">{t('login.emailCodeResets')}</p>}
          <button type="submit" className="button button-primary button-block">
            {t('login.verify')}
          </button>
          <button type="button" className="link-button" onClick={() => send({ type: 'SEND_EMAIL_CODE' })}>
            {t('login.sendCodeAgain')}
          </button>
        </form>
      ) : (
        <div className="login-form">
          <p className="login-blocked" role="alert">
            {t('login.blockedBefore')}
            <strong>{state.email}</strong>
            {t('login.blockedAfter')}
          </p>
          <button type="button" className="button button-primary button-block" onClick={() => send({ type: 'START_OVER' })}>
            {t('login.startOver')}
          </button>
        </div>
      );
      break;
    case 'LOADER':
      body = (
        <div className="login-loader" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <span>{t('login.signingInTo', { email: state.email })}</span>
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
          {adding && (state.step === 'SPLIT_LOGIN' || state.step === 'LOGGED_OUT')
            ? t('login.titleAddAccount')
            : state.step === 'MULTI_COUNTRY_LOGIN_ERROR' && !state.sentTo
              ? t('login.titleBlocked')
              : t(TITLES[state.step])}
        </h2>
        {(state.step === 'SPLIT_LOGIN' || state.step === 'LOGGED_OUT') && (
          <p className="login-subtitle">{adding ? t('login.subtitleAdding') : t('login.subtitle')}</p>
        )}
        <div key={state.step} className="login-step">
          {body}
        </div>
        {adding && accounts.length > 0 && state.step !== 'LOADER' && (
          <Link to="/mail/unified/$role" params={{ role: 'inbox' }} className="link-button login-cancel">
            {t('login.cancelAdding')}
          </Link>
        )}
      </div>
      {/* The engine's version is for tests and support (the attribute), not a line for the user. */}
      <footer className="login-footer" data-engine-version={version || undefined}>
        <p role="status" className="engine-status">
          {version ? '' : t('login.startingEngine')}
        </p>
      </footer>
    </main>
  );
}
