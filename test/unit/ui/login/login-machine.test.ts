import { expect, test } from 'vitest';
import { LOGIN_STEPS, isLoginStep } from '../../../../shared/login-steps';
import { fieldOfStep, initialLoginState, loginReducer, type LoginEvent, type LoginState } from '../../../../src-ui/login/login-machine';

const run = (events: LoginEvent[], start: LoginState = initialLoginState()) => events.reduce(loginReducer, start);

test('knows every step identifier of the spec', () => {
  expect([...LOGIN_STEPS].sort()).toEqual(
    ['ALTERNATE_EMAIL', 'AUTHENTICATOR', 'LOADER', 'LOGGED_OUT', 'LOGIN', 'LOGIN_SUCCESS', 'MULTI_COUNTRY_LOGIN_ERROR', 'RECOVERY_CODE', 'SPLIT_LOGIN'].sort(),
  );
  expect(isLoginStep('LOADER')).toBe(true);
  expect(isLoginStep('loader')).toBe(false);
  expect(initialLoginState().step).toBe('SPLIT_LOGIN');
  expect(initialLoginState({ loggedOut: true }).step).toBe('LOGGED_OUT');
});

test('split login: the email is checked by the seed rule before anything is sent', () => {
  const refused = run([{ type: 'SUBMIT_EMAIL', email: 'alice@@tern' }]);
  expect(refused.step).toBe('SPLIT_LOGIN');
  expect(refused.error).toEqual({ field: 'email', name: 'InvalidMail', message: 'This email address is not valid.' });
  expect(refused.attempt).toBeNull();

  const accepted = loginReducer(refused, { type: 'SUBMIT_EMAIL', email: '  Alice@Tern.Test ' });
  expect(accepted).toMatchObject({ step: 'LOGIN', email: 'alice@tern.test', error: null });
});

test('password then LOADER with the attempt, then LOGIN_SUCCESS forgets the password', () => {
  const loading = run([
    { type: 'SUBMIT_EMAIL', email: 'alice@tern.test' },
    { type: 'SUBMIT_PASSWORD', password: 'Tern-demo-1!' },
  ]);
  expect(loading.step).toBe('LOADER');
  expect(loading.attempt).toEqual({ email: 'alice@tern.test', password: 'Tern-demo-1!' });
  const done = loginReducer(loading, { type: 'LOGIN_SUCCEEDED' });
  expect(done).toMatchObject({ step: 'LOGIN_SUCCESS', password: '', attempt: null });
});

test('an empty password is not sent', () => {
  const state = run([{ type: 'SUBMIT_EMAIL', email: 'alice@tern.test' }, { type: 'SUBMIT_PASSWORD', password: '' }]);
  expect(state.step).toBe('LOGIN');
  expect(state.error?.field).toBe('password');
});

test('a refused password goes back to the password step with the catalogue sentence', () => {
  const state = run([
    { type: 'SUBMIT_EMAIL', email: 'alice@tern.test' },
    { type: 'SUBMIT_PASSWORD', password: 'nope' },
    { type: 'LOGIN_FAILED', error: { name: 'AuthenticationError' } },
  ]);
  expect(state).toMatchObject({ step: 'LOGIN', password: '', error: { field: 'password', name: 'AuthenticationError', message: 'Incorrect Email or Password' } });
});

test('errors about the address or its provider go back to the email step', () => {
  const state = run([
    { type: 'SUBMIT_EMAIL', email: 'alice@nowhere.test' },
    { type: 'SUBMIT_PASSWORD', password: 'x' },
    { type: 'LOGIN_FAILED', error: { name: 'ImapHostNotFound', message: "Sorry, we currently don't support your email service provider" } },
  ]);
  expect(state.step).toBe('SPLIT_LOGIN');
  expect(state.error).toMatchObject({ field: 'email', name: 'ImapHostNotFound' });
  expect(state.email).toBe('alice@nowhere.test');
});

test('unknown error names become InternalServerError, never free text', () => {
  const state = run([
    { type: 'SUBMIT_EMAIL', email: 'alice@tern.test' },
    { type: 'SUBMIT_PASSWORD', password: 'x' },
    { type: 'LOGIN_FAILED', error: { name: 'TypeError', message: '' } },
  ]);
  expect(state.error).toMatchObject({ name: 'InternalServerError', message: 'Something went wrong on our side. Please try again.' });
});

test('two-factor: AUTHENTICATOR asks auth_code, RECOVERY_CODE the recovery code; both resend the credentials', () => {
  const challenged = run([
    { type: 'SUBMIT_EMAIL', email: 'carol@tern.test' },
    { type: 'SUBMIT_PASSWORD', password: 'pw' },
    { type: 'LOGIN_CHALLENGED', step: 'AUTHENTICATOR' },
  ]);
  expect(challenged.step).toBe('AUTHENTICATOR');
  expect(fieldOfStep(challenged.step)).toBe('authCode');
  expect(loginReducer(challenged, { type: 'SUBMIT_AUTH_CODE', code: '12' }).error?.field).toBe('authCode');
  const sending = loginReducer(challenged, { type: 'SUBMIT_AUTH_CODE', code: '123 456' });
  expect(sending.attempt).toEqual({ email: 'carol@tern.test', password: 'pw', authCode: '123456' });
  const wrong = loginReducer(sending, { type: 'LOGIN_FAILED', error: { name: 'AuthenticationError' } });
  expect(wrong).toMatchObject({ step: 'AUTHENTICATOR', password: 'pw', error: { field: 'authCode' } });

  const recovery = loginReducer(wrong, { type: 'USE_RECOVERY_CODE' });
  expect(recovery.step).toBe('RECOVERY_CODE');
  expect(loginReducer(recovery, { type: 'SUBMIT_RECOVERY_CODE', code: 'abcd-efgh' }).attempt).toEqual({ email: 'carol@tern.test', password: 'pw', recoveryCode: 'abcd-efgh' });
  expect(loginReducer(recovery, { type: 'USE_AUTH_CODE' }).step).toBe('AUTHENTICATOR');
});

test('a lost authenticator: SEND_EMAIL_CODE asks for a mailed code only when the gateway offered it; ALTERNATE_EMAIL takes six digits', () => {
  const asked = run([
    { type: 'SUBMIT_EMAIL', email: 'dave@tern.test' },
    { type: 'SUBMIT_PASSWORD', password: 'pw' },
    { type: 'LOGIN_CHALLENGED', step: 'AUTHENTICATOR' },
  ]);
  expect(loginReducer(asked, { type: 'SEND_EMAIL_CODE' })).toBe(asked);
  const offered = loginReducer(loginReducer(asked, { type: 'SUBMIT_AUTH_CODE', code: '123456' }), { type: 'LOGIN_CHALLENGED', step: 'AUTHENTICATOR', canUseEmail: true });
  const sending = loginReducer(offered, { type: 'SEND_EMAIL_CODE' });
  expect(sending).toMatchObject({ step: 'LOADER', returnTo: 'AUTHENTICATOR', attempt: { email: 'dave@tern.test', password: 'pw', sendEmailCode: true } });
  const mailed = loginReducer(sending, { type: 'LOGIN_CHALLENGED', step: 'ALTERNATE_EMAIL', sentTo: 'd•••@home.example' });
  expect(mailed).toMatchObject({ step: 'ALTERNATE_EMAIL', sentTo: 'd•••@home.example', password: 'pw' });
  expect(loginReducer(mailed, { type: 'SUBMIT_EMAIL_CODE', code: '12a' }).error).toMatchObject({ field: 'emailCode', hint: 'login.enterEmailCode' });
  const sent = loginReducer(mailed, { type: 'SUBMIT_EMAIL_CODE', code: ' 123 456 ' });
  expect(sent.attempt).toEqual({ email: 'dave@tern.test', password: 'pw', emailCode: '123456' });
  // A wrong code comes back to the code step, the password still kept for the next try.
  expect(loginReducer(sent, { type: 'LOGIN_FAILED', error: { name: 'EmailCodeInvalid' } })).toMatchObject({ step: 'ALTERNATE_EMAIL', password: 'pw', error: { field: 'emailCode', name: 'EmailCodeInvalid' } });
});

test('MULTI_COUNTRY_LOGIN_ERROR with a mailed code asks for it, and answers with the password again', () => {
  const asked = run([
    { type: 'SUBMIT_EMAIL', email: 'eve@tern.test' },
    { type: 'SUBMIT_PASSWORD', password: 'pw' },
    { type: 'LOGIN_CHALLENGED', step: 'MULTI_COUNTRY_LOGIN_ERROR', sentTo: 'e•••@home.example' },
  ]);
  expect(asked).toMatchObject({ step: 'MULTI_COUNTRY_LOGIN_ERROR', password: 'pw' });
  expect(loginReducer(asked, { type: 'SUBMIT_EMAIL_CODE', code: '654321' }).attempt).toEqual({ email: 'eve@tern.test', password: 'pw', emailCode: '654321' });
});

test('MULTI_COUNTRY_LOGIN_ERROR ends the attempt; START_OVER goes back to the email step', () => {
  const blocked = run([
    { type: 'SUBMIT_EMAIL', email: 'eve@tern.test' },
    { type: 'SUBMIT_PASSWORD', password: 'pw' },
    { type: 'LOGIN_CHALLENGED', step: 'MULTI_COUNTRY_LOGIN_ERROR' },
  ]);
  expect(blocked).toMatchObject({ step: 'MULTI_COUNTRY_LOGIN_ERROR', password: '' });
  expect(loginReducer(blocked, { type: 'START_OVER' })).toMatchObject({ step: 'SPLIT_LOGIN', email: 'eve@tern.test' });
});

test('events that do not belong to the step change nothing', () => {
  const start = initialLoginState();
  expect(loginReducer(start, { type: 'SUBMIT_PASSWORD', password: 'x' })).toBe(start);
  expect(loginReducer(start, { type: 'LOGIN_SUCCEEDED' })).toBe(start);
  const loading = run([{ type: 'SUBMIT_EMAIL', email: 'a@b.co' }, { type: 'SUBMIT_PASSWORD', password: 'x' }]);
  expect(loginReducer(loading, { type: 'CHANGE_EMAIL' })).toBe(loading);
  expect(loginReducer(loading, { type: 'SUBMIT_EMAIL', email: 'c@d.co' })).toBe(loading);
});

test('CHECK_EMAIL waits on the email step for the gateway; a discovery error stays there, a failed check goes on to the password', () => {
  const checking = loginReducer(initialLoginState(), { type: 'CHECK_EMAIL', email: ' Someone@Nowhere.Invalid ' });
  expect(checking).toMatchObject({ step: 'SPLIT_LOGIN', checking: checking.email, error: null });
  expect(checking.email.toLowerCase()).toBe('someone@nowhere.invalid');
  const refused = loginReducer(checking, { type: 'EMAIL_REFUSED', email: checking.email, error: { name: 'MXNotFound' } });
  expect(refused).toMatchObject({ step: 'SPLIT_LOGIN', error: { field: 'email', name: 'MXNotFound', message: 'No mail server was found for this domain.' } });
  expect(refused.checking).toBeUndefined();
  // An answer for an address no longer asked about changes nothing.
  expect(loginReducer(checking, { type: 'EMAIL_REFUSED', email: 'other@x.co', error: { name: 'MXNotFound' } })).toBe(checking);
  // Offline or busy: the login itself will say what is wrong.
  expect(loginReducer(checking, { type: 'EMAIL_REFUSED', email: checking.email, error: { name: 'OperationFailed' } })).toMatchObject({ step: 'LOGIN', error: null });
  const next = loginReducer(checking, { type: 'SUBMIT_EMAIL', email: checking.email });
  expect(next.step).toBe('LOGIN');
  expect('checking' in next).toBe(false);
  // The address is still checked locally first: a bad one never reaches the gateway.
  expect(loginReducer(initialLoginState(), { type: 'CHECK_EMAIL', email: 'alice@@tern' })).toMatchObject({ step: 'SPLIT_LOGIN', error: { field: 'email' } });
  expect(loginReducer(initialLoginState(), { type: 'CHECK_EMAIL', email: 'alice@@tern' }).checking).toBeUndefined();
});
