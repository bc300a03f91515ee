/**
 * The login screen: the step machine of login-machine.ts rendered as a card. Used for
 * the first login and, with `?add=1`, to add another account without logging out.
 */
import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect, useReducer, useRef, type FormEvent, type ReactNode } from 'react';
import type { TernError } from '../../shared/errors';
import { LOGIN_INPUT_NAMES } from '../../shared/login-steps';
import { brand } from '../brand';
import { formatPhrase } from '../../shared/strings';
import { useLocale, useT, type MessageId } from '../kit/i18n';
import { RedirectToCompose, RedirectToInbox } from '../kit/Redirect';
import { useMailActions } from '../state/actions-context';
import { useSwitchAccount } from '../state/switch-account';
import { accountsAtom, engineVersionAtom, loggedOutAtom } from '../state/atoms';
import { endedSessionsAtom, sessionEndedMessage } from '../state/ended-sessions';
import { initialLoginState, loginReducer, type LoginEvent, type LoginState } from './login-machine';
import { CodeStep, EmailChip, Field, formValue, PasswordField } from './login-fields';

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
  const router = useRouter();
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
    // The mail screens' chunks load while the gateway checks the password (issue 13: sign-in → rows
    // waited for them after the answer). A failed preload costs nothing: the route loads them again.
    router.preloadRoute({ to: '/mail/unified/$role', params: { role: 'inbox' } }).catch(() => undefined);
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
    case 'RECOVERY_CODE': {
      const authenticator = state.step === 'AUTHENTICATOR';
      const lost = state.canUseEmail ? [{ label: t('login.lostAuthenticator'), run: () => send({ type: 'SEND_EMAIL_CODE' }) }] : [];
      body = (
        <CodeStep
          key={state.step}
          state={state}
          field={authenticator ? 'authCode' : 'recoveryCode'}
          name={authenticator ? LOGIN_INPUT_NAMES.authCode : LOGIN_INPUT_NAMES.recoveryCode}
          label={authenticator ? t('login.verificationCode') : t('login.recoveryCode')}
          hint={authenticator ? t('login.verificationHint') : t('login.recoveryHint')}
          autoComplete={authenticator ? 'one-time-code' : 'off'}
          inputMode={authenticator ? 'numeric' : undefined}
          ways={[
            authenticator
              ? { label: t('login.useRecoveryCode'), run: () => send({ type: 'USE_RECOVERY_CODE' }) }
              : { label: t('login.useAuthenticator'), run: () => send({ type: 'USE_AUTH_CODE' }) },
            ...lost,
          ]}
          onCode={(code) => send(authenticator ? { type: 'SUBMIT_AUTH_CODE', code } : { type: 'SUBMIT_RECOVERY_CODE', code })}
          onChangeEmail={() => send({ type: 'CHANGE_EMAIL' })}
        />
      );
      break;
    }
    case 'ALTERNATE_EMAIL':
    case 'MULTI_COUNTRY_LOGIN_ERROR':
      body = state.sentTo ? (
        <CodeStep
          state={state}
          field="emailCode"
          name="email_code"
          label={t('login.emailCode')}
          hint={t('login.emailCodeSent', { address: state.sentTo })}
          autoComplete="one-time-code"
          inputMode="numeric"
          notice={
            state.step === 'MULTI_COUNTRY_LOGIN_ERROR' && (
              <p className="login-notice" role="status">
                {t('login.unusualPlace')}
              </p>
            )
          }
          note={state.step === 'ALTERNATE_EMAIL' && <p className="field-hint">{t('login.emailCodeResets')}</p>}
          ways={[{ label: t('login.sendCodeAgain'), run: () => send({ type: 'SEND_EMAIL_CODE' }) }]}
          onCode={(code) => send({ type: 'SUBMIT_EMAIL_CODE', code })}
          onChangeEmail={() => send({ type: 'CHANGE_EMAIL' })}
        />
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
