/**
 * The login screen as a pure state machine over the spec's step identifiers (§2):
 *
 *   SPLIT_LOGIN (or LOGGED_OUT) ─email ok─▶ LOGIN ─password─▶ LOADER ─▶ LOGIN_SUCCESS
 *                                                              │
 *         AUTHENTICATOR ⇄ RECOVERY_CODE ◀───────────────────────┤ (the gateway asks)
 *               └─ lost the app ─▶ ALTERNATE_EMAIL (a code mailed)│
 *         MULTI_COUNTRY_LOGIN_ERROR (a code mailed) ◀───────────┘ (unusual country)
 *
 * LOADER carries the attempt to send; the screen sends it and dispatches the outcome.
 * A failure goes back to the step it came from with the catalogue's sentence next to
 * that step's field, or to the email step when the error is about the address.
 */
import { checkEmail } from '../../shared/email-rule';
import { ERROR_CATALOGUE, type ErrorName } from '../../shared/errors';
import type { LoginChallengeStep, LoginStep } from '../../shared/login-steps';
import type { MessageId } from '../../shared/strings';
import type { AddAccountParams } from '../state/engine-port';

/** The input an error belongs next to. */
export type LoginField = 'email' | 'password' | 'authCode' | 'recoveryCode' | 'emailCode';

export interface LoginError {
  readonly field: LoginField;
  /** The catalogue name when the error came from the catalogue. */
  readonly name: ErrorName | null;
  /** The gateway's description (English); the screen shows `errors.<name>` or the hint in its locale. */
  readonly message: string;
  /** A hint of the form itself (not a catalogue error): its catalogue message. */
  readonly hint?: MessageId;
}

/** Steps that show a form the user fills in. */
type FormStep = 'SPLIT_LOGIN' | 'LOGGED_OUT' | 'LOGIN' | 'AUTHENTICATOR' | 'RECOVERY_CODE' | 'ALTERNATE_EMAIL' | 'MULTI_COUNTRY_LOGIN_ERROR';

export interface LoginState {
  readonly step: LoginStep;
  /** The accepted (normalised) address once past the email step; what was typed before. */
  readonly email: string;
  /** Kept only until the login ends, to answer a challenge without asking again. */
  readonly password: string;
  /** What LOADER sends. */
  readonly attempt: AddAccountParams | null;
  /** The step LOADER returns to when the attempt fails. */
  readonly returnTo: FormStep;
  readonly error: LoginError | null;
  /**
   * The address the email step is asking the gateway about (CHECK_EMAIL): whether its
   * domain can be served, before the password is asked for. Absent when no check runs.
   */
  readonly checking?: string;
  /** The masked address the gateway mailed a code to (ALTERNATE_EMAIL, MULTI_COUNTRY_LOGIN_ERROR). */
  readonly sentTo?: string;
  /** The account has a confirmed alternate email: the second-factor steps offer a code by email. */
  readonly canUseEmail?: boolean;
}

export type LoginEvent =
  /** `signedIn`: the addresses of the accounts already signed in (adding one of them again is refused at this step). */
  | { readonly type: 'SUBMIT_EMAIL'; readonly email: string; readonly signedIn?: readonly string[] }
  /** The email step's Next: as SUBMIT_EMAIL, but the gateway is asked about the domain first (then SUBMIT_EMAIL or EMAIL_REFUSED). */
  | { readonly type: 'CHECK_EMAIL'; readonly email: string; readonly signedIn?: readonly string[] }
  /** The gateway's answer to a check: a discovery error keeps the email step; any other (offline …) goes on to the password. */
  | { readonly type: 'EMAIL_REFUSED'; readonly email: string; readonly error: { readonly name: string; readonly message?: string } }
  | { readonly type: 'CHANGE_EMAIL' }
  | { readonly type: 'SUBMIT_PASSWORD'; readonly password: string }
  | { readonly type: 'SUBMIT_AUTH_CODE'; readonly code: string }
  | { readonly type: 'SUBMIT_RECOVERY_CODE'; readonly code: string }
  /** The code the gateway mailed (ALTERNATE_EMAIL, MULTI_COUNTRY_LOGIN_ERROR). */
  | { readonly type: 'SUBMIT_EMAIL_CODE'; readonly code: string }
  /** "Lost your authenticator?": the gateway mails a code to the alternate email (or again, from the email steps). */
  | { readonly type: 'SEND_EMAIL_CODE' }
  | { readonly type: 'USE_RECOVERY_CODE' }
  | { readonly type: 'USE_AUTH_CODE' }
  | { readonly type: 'LOGIN_SUCCEEDED' }
  | { readonly type: 'LOGIN_CHALLENGED'; readonly step: LoginChallengeStep; readonly sentTo?: string; readonly canUseEmail?: boolean }
  | { readonly type: 'LOGIN_FAILED'; readonly error: { readonly name: string; readonly message?: string } }
  | { readonly type: 'START_OVER' };

export function initialLoginState(options: { loggedOut?: boolean; email?: string } = {}): LoginState {
  return {
    step: options.loggedOut ? 'LOGGED_OUT' : 'SPLIT_LOGIN',
    email: options.email ?? '',
    password: '',
    attempt: null,
    returnTo: 'SPLIT_LOGIN',
    error: null,
  };
}

/** Errors about the address or its provider: the user fixes them on the email step. */
const EMAIL_ERRORS: ReadonlySet<string> = new Set<ErrorName>([
  'InvalidMail',
  'MXNotFound',
  'ImapHostNotFound',
  'NoSuchImapProvider',
  'UnsupportedNonStickyImapProvider',
  'AccountNotFound',
  'PartnerNotFound',
]);

const FIELD_OF_STEP: Record<FormStep, LoginField> = {
  SPLIT_LOGIN: 'email',
  LOGGED_OUT: 'email',
  LOGIN: 'password',
  AUTHENTICATOR: 'authCode',
  RECOVERY_CODE: 'recoveryCode',
  ALTERNATE_EMAIL: 'emailCode',
  MULTI_COUNTRY_LOGIN_ERROR: 'emailCode',
};

/** Authenticator codes are 6 to 8 digits; recovery codes letters, digits and dashes. */
const AUTH_CODE = /^\d{6,8}$/;
const RECOVERY_CODE = /^[a-z0-9 -]{6,64}$/i;
/** Codes the gateway mails: six digits. */
const EMAIL_CODE = /^\d{6}$/;

const catalogueError = (field: LoginField, name: ErrorName): LoginError => ({ field, name, message: ERROR_CATALOGUE[name].description });
const hint = (field: LoginField, id: MessageId): LoginError => ({ field, name: null, message: '', hint: id });

function toLoader(state: LoginState, from: FormStep, attempt: AddAccountParams): LoginState {
  return { ...state, step: 'LOADER', attempt, returnTo: from, error: null };
}

/** Credentials of the first attempt, plus what a challenge step adds. */
const baseAttempt = (state: LoginState): AddAccountParams => ({ email: state.email, password: state.password });

export function loginReducer(state: LoginState, event: LoginEvent): LoginState {
  switch (event.type) {
    case 'SUBMIT_EMAIL':
    case 'CHECK_EMAIL': {
      if (state.step !== 'SPLIT_LOGIN' && state.step !== 'LOGGED_OUT') return state;
      const { checking: _, ...rest } = state;
      const checked = checkEmail(event.email);
      if (!checked.ok) return { ...rest, email: event.email, error: catalogueError('email', checked.error) };
      // Not the password for an account that is already here: say so (the screen offers to switch to it).
      const address = checked.email.toLowerCase();
      if (event.signedIn?.some((email) => email.toLowerCase() === address)) return { ...rest, email: checked.email, error: catalogueError('email', 'AccountAlreadySignedIn') };
      if (event.type === 'CHECK_EMAIL') return { ...rest, email: checked.email, error: null, checking: checked.email };
      return { ...rest, step: 'LOGIN', email: checked.email, password: '', error: null };
    }
    case 'EMAIL_REFUSED': {
      if (state.checking !== event.email) return state;
      const { checking: _, ...rest } = state;
      const name = (Object.hasOwn(ERROR_CATALOGUE, event.error.name) ? event.error.name : 'InternalServerError') as ErrorName;
      // Only an answer about the domain stops here; a failed check (offline, busy) leaves it to the login.
      if (!EMAIL_ERRORS.has(name)) return { ...rest, step: 'LOGIN', password: '', error: null };
      return { ...rest, error: { field: 'email', name, message: event.error.message || ERROR_CATALOGUE[name].description } };
    }
    case 'CHANGE_EMAIL':
      if (state.step === 'LOADER' || state.step === 'LOGIN_SUCCESS') return state;
      return { ...initialLoginState({ email: state.email }) };
    case 'SUBMIT_PASSWORD':
      if (state.step !== 'LOGIN') return state;
      if (event.password.length === 0) return { ...state, error: hint('password', 'login.enterPassword') };
      return toLoader({ ...state, password: event.password }, 'LOGIN', { email: state.email, password: event.password });
    case 'SUBMIT_AUTH_CODE': {
      if (state.step !== 'AUTHENTICATOR') return state;
      const code = event.code.replace(/\s+/g, '');
      if (!AUTH_CODE.test(code)) return { ...state, error: hint('authCode', 'login.enterAuthCode') };
      return toLoader(state, 'AUTHENTICATOR', { ...baseAttempt(state), authCode: code });
    }
    case 'SUBMIT_RECOVERY_CODE': {
      if (state.step !== 'RECOVERY_CODE') return state;
      const code = event.code.trim();
      if (!RECOVERY_CODE.test(code)) return { ...state, error: hint('recoveryCode', 'login.enterRecoveryCode') };
      return toLoader(state, 'RECOVERY_CODE', { ...baseAttempt(state), recoveryCode: code });
    }
    case 'SUBMIT_EMAIL_CODE': {
      if (state.step !== 'ALTERNATE_EMAIL' && state.step !== 'MULTI_COUNTRY_LOGIN_ERROR') return state;
      const code = event.code.replace(/\s+/g, '');
      if (!EMAIL_CODE.test(code)) return { ...state, error: hint('emailCode', 'login.enterEmailCode') };
      return toLoader(state, state.step, { ...baseAttempt(state), emailCode: code });
    }
    case 'SEND_EMAIL_CODE': {
      const from = state.step;
      if (from !== 'AUTHENTICATOR' && from !== 'RECOVERY_CODE' && from !== 'ALTERNATE_EMAIL' && from !== 'MULTI_COUNTRY_LOGIN_ERROR') return state;
      if ((from === 'AUTHENTICATOR' || from === 'RECOVERY_CODE') && !state.canUseEmail) return state;
      return toLoader(state, from, { ...baseAttempt(state), sendEmailCode: true });
    }
    case 'USE_RECOVERY_CODE':
      return state.step === 'AUTHENTICATOR' ? { ...state, step: 'RECOVERY_CODE', error: null } : state;
    case 'USE_AUTH_CODE':
      return state.step === 'RECOVERY_CODE' ? { ...state, step: 'AUTHENTICATOR', error: null } : state;
    case 'LOGIN_SUCCEEDED':
      if (state.step !== 'LOADER') return state;
      // The password is not kept a moment longer than needed.
      return { ...state, step: 'LOGIN_SUCCESS', password: '', attempt: null, error: null };
    case 'LOGIN_CHALLENGED':
      if (state.step !== 'LOADER') return state;
      // Refused outright (no way to confirm by code): the password is not kept.
      if (event.step === 'MULTI_COUNTRY_LOGIN_ERROR' && !event.sentTo) return { ...state, step: event.step, password: '', attempt: null, error: null, sentTo: undefined };
      return {
        ...state,
        step: event.step,
        attempt: null,
        error: null,
        sentTo: event.sentTo,
        canUseEmail: event.canUseEmail ?? state.canUseEmail,
      };
    case 'LOGIN_FAILED': {
      if (state.step !== 'LOADER') return state;
      const name = (Object.hasOwn(ERROR_CATALOGUE, event.error.name) ? event.error.name : 'InternalServerError') as ErrorName;
      const message = event.error.message || ERROR_CATALOGUE[name].description;
      if (EMAIL_ERRORS.has(name)) {
        return { ...state, step: 'SPLIT_LOGIN', password: '', attempt: null, returnTo: 'SPLIT_LOGIN', error: { field: 'email', name, message } };
      }
      const back = state.returnTo;
      const password = back === 'LOGIN' ? '' : state.password;
      return { ...state, step: back, password, attempt: null, error: { field: FIELD_OF_STEP[back], name, message } };
    }
    case 'START_OVER':
      return initialLoginState({ email: state.email });
  }
}

/** Whether a step shows a form field (and so may show an error next to it). */
export function fieldOfStep(step: LoginStep): LoginField | null {
  return step in FIELD_OF_STEP ? FIELD_OF_STEP[step as FormStep] : null;
}
