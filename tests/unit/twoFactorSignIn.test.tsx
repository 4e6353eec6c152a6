import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SignInResult, TwoFactorStep } from '../../providers/authProvider.js';
import { authProvider } from '../../providers/index.js';
import { i18n, loadLanguage } from '../../src/i18n.js';
import { SignInForm } from '../../src/pages/auth/SignInForm.js';
import TwoFactorForm from '../../src/pages/auth/TwoFactorForm.js';

/** The sign-in's second step (issue 44) on the public pages: its form alone, then within the sign-in form. */
beforeAll(async () => {
  await loadLanguage('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  Reflect.deleteProperty(window, 'PublicKeyCredential');
});

const STEP: TwoFactorStep = { challenge: 'challenge-1', methods: ['totp', 'recovery'], rememberMe: true, admin: false };
const refused = (messageKey: string): SignInResult => ({ success: false, error: { name: messageKey, message: messageKey } });

function renderStep(step: TwoFactorStep = STEP) {
  const onSignedIn = vi.fn();
  const onRestart = vi.fn();
  render(<TwoFactorForm step={step} onSignedIn={onSignedIn} onRestart={onRestart} />);
  return { onSignedIn, onRestart };
}

const codeField = () => screen.getByLabelText(/Authentication code/);
const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });
const verify = () => fireEvent.click(screen.getByRole('button', { name: 'Verify' }));

describe('the second step of a sign-in', () => {
  it('asks for the 6-digit code in one field the browser can fill from a text message or a password manager', () => {
    renderStep();
    const field = codeField();
    expect(field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(field.getAttribute('inputmode')).toBe('numeric');
    expect(document.activeElement).toBe(field);
    expect(i18n.t('twoFactorSignIn:title')).toBe('Two-step sign-in');
    expect(screen.getByRole('heading', { name: 'Two-step sign-in' })).toBeDefined();
  });

  it('sends the code with the challenge, spaces dropped, and reports success', async () => {
    const complete = vi.spyOn(authProvider, 'completeTwoFactor').mockResolvedValue({ success: true });
    const { onSignedIn } = renderStep();
    type(codeField(), '123 456');
    verify();
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledTimes(1));
    expect(complete).toHaveBeenCalledExactlyOnceWith(STEP, { code: '123456' });
  });

  it('a code that is not six digits is refused under the field, without asking the server', async () => {
    const complete = vi.spyOn(authProvider, 'completeTwoFactor');
    renderStep();
    type(codeField(), '12345');
    verify();
    await screen.findByText('Enter the 6 digits the app shows.');
    expect(complete).not.toHaveBeenCalled();
  });

  it('a wrong code is said by its messageKey, the field is emptied and keeps the focus for the next try', async () => {
    vi.spyOn(authProvider, 'completeTwoFactor').mockResolvedValue(refused('INVALID_TWO_FACTOR_CODE'));
    const { onSignedIn, onRestart } = renderStep();
    type(codeField(), '000000');
    verify();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('That code is not right.');
    expect((codeField() as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(codeField());
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(onRestart).not.toHaveBeenCalled();
  });

  it('a challenge that expired (or had too many tries) goes back to the first step with its reason', async () => {
    vi.spyOn(authProvider, 'completeTwoFactor').mockResolvedValue(refused('TWO_FACTOR_CHALLENGE_EXPIRED'));
    const { onRestart } = renderStep();
    type(codeField(), '123456');
    verify();
    await waitFor(() => expect(onRestart).toHaveBeenCalledExactlyOnceWith('TWO_FACTOR_CHALLENGE_EXPIRED'));
  });

  it('"Use a recovery code" switches to a recovery code field and sends it as the contract reads it', async () => {
    const complete = vi.spyOn(authProvider, 'completeTwoFactor').mockResolvedValue({ success: true });
    renderStep();
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const field = screen.getByLabelText(/Recovery code/);
    expect(document.activeElement).toBe(field);
    expect(field.getAttribute('autocomplete')).toBe('off');
    type(field, 'ABCDE-12345');
    verify();
    await waitFor(() => expect(complete).toHaveBeenCalledExactlyOnceWith(STEP, { recoveryCode: 'abcde12345' }));
    // And back to the app's code.
    fireEvent.click(screen.getByRole('button', { name: 'Use the authenticator app' }));
    expect(codeField()).toBeDefined();
  });

  it('offers a passkey only when the account has one and the browser can use it', () => {
    renderStep({ ...STEP, methods: ['totp', 'recovery', 'passkey'] });
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
    cleanup();
    Object.defineProperty(window, 'PublicKeyCredential', { configurable: true, value: function PublicKeyCredential() {} });
    renderStep({ ...STEP, methods: ['totp', 'recovery', 'passkey'] });
    fireEvent.click(screen.getByRole('button', { name: 'Use a passkey' }));
    expect(screen.getByRole('button', { name: 'Use my passkey' })).toBeDefined();
    cleanup();
    renderStep(STEP);
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
  });

  it('an account with passkeys only starts with the passkey; "Back to sign-in" goes back without a reason', () => {
    Object.defineProperty(window, 'PublicKeyCredential', { configurable: true, value: function PublicKeyCredential() {} });
    const { onRestart } = renderStep({ ...STEP, methods: ['passkey', 'recovery'] });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Use my passkey' }));
    expect(screen.queryByRole('button', { name: 'Use the authenticator app' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Back to sign-in' }));
    expect(onRestart).toHaveBeenCalledExactlyOnceWith(null);
  });
});

describe('the sign-in form with a second step', () => {
  function renderSignIn() {
    render(
      <MemoryRouter initialEntries={['/login']}>
        <Routes>
          <Route path="/login" element={<SignInForm admin={false} title="Sign in to Shapelab" submitLabel="Sign in" />} />
          <Route path="/" element={<p>signed in home</p>} />
        </Routes>
      </MemoryRouter>,
    );
  }

  async function passFirstStep(rememberMe: boolean) {
    type(screen.getByLabelText(/Email/), 'ada@example.com');
    type(screen.getByLabelText(/^Password/), 'secret123');
    if (rememberMe) fireEvent.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    return screen.findByLabelText(/Authentication code/, undefined, { timeout: 5_000 });
  }

  it('an account with a second factor continues with the code; remember me carries over; the code signs in', async () => {
    const login = vi.spyOn(authProvider, 'login').mockResolvedValue({ success: false, twoFactor: STEP });
    const complete = vi.spyOn(authProvider, 'completeTwoFactor').mockResolvedValue({ success: true });
    renderSignIn();
    await passFirstStep(true);
    expect(login).toHaveBeenCalledExactlyOnceWith({ email: 'ada@example.com', password: 'secret123', rememberMe: true, admin: false });
    // The password step is gone: nothing of it is filled in again by mistake.
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
    type(codeField(), '654321');
    verify();
    await screen.findByText('signed in home');
    // The step the provider handed back (with remember me in it) is the one answered.
    expect(complete).toHaveBeenCalledExactlyOnceWith(STEP, { code: '654321' });
  });

  it('an expired challenge shows the first step again with the reason, the email kept and the password to type again', async () => {
    vi.spyOn(authProvider, 'login').mockResolvedValue({ success: false, twoFactor: STEP });
    vi.spyOn(authProvider, 'completeTwoFactor').mockResolvedValue(refused('TWO_FACTOR_CHALLENGE_EXPIRED'));
    renderSignIn();
    await passFirstStep(false);
    type(codeField(), '123456');
    await act(async () => verify());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('This sign-in has expired or had too many tries. Please sign in again.');
    expect((screen.getByLabelText(/Email/) as HTMLInputElement).value).toBe('ada@example.com');
    expect((screen.getByLabelText(/^Password/) as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText(/Email/)));
  });

  it('a refused password stays on the first step with its message, as before', async () => {
    vi.spyOn(authProvider, 'login').mockResolvedValue(refused('WRONG_CREDENTIALS'));
    renderSignIn();
    type(screen.getByLabelText(/Email/), 'ada@example.com');
    type(screen.getByLabelText(/^Password/), 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('alert');
    expect(screen.queryByLabelText(/Authentication code/)).toBeNull();
  });

  it('the email field offers the browser’s passkey autofill; the passkey button shows where the browser has passkeys', () => {
    renderSignIn();
    expect(screen.getByLabelText(/Email/).getAttribute('autocomplete')).toBe('username webauthn');
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull();
    cleanup();
    Object.defineProperty(window, 'PublicKeyCredential', { configurable: true, value: function PublicKeyCredential() {} });
    renderSignIn();
    expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeDefined();
  });
});
