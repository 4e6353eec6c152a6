import { act, renderHook } from '@testing-library/react';
import type { FormEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useFormFields, validateFields } from '../../src/components/form/useFormFields.js';

interface Values {
  email: string;
  password: string;
  remember: boolean;
}
const rules = {
  email: (value: string) => (value.trim() === '' ? 'Email is required' : null),
  password: (value: string) => (value.length < 8 ? 'Too short' : null),
};
const submitEvent = () => ({ preventDefault: vi.fn() }) as unknown as FormEvent;
const changeEvent = (value: string) => ({ target: { value } }) as unknown as Parameters<ReturnType<ReturnType<typeof useFormFields<Values>>['text']>['onChange']>[0];

describe('validateFields', () => {
  it('returns a message per failing field only', () => {
    expect(validateFields({ email: '', password: 'long enough', remember: false }, rules)).toEqual({ email: 'Email is required' });
    expect(validateFields({ email: 'a@b.de', password: 'long enough', remember: false }, rules)).toEqual({});
  });
});

describe('useFormFields', () => {
  it('does not submit invalid values and shows every error', async () => {
    const onValid = vi.fn();
    const { result } = renderHook(() => useFormFields<Values>({ email: '', password: '', remember: false }, rules));
    await act(() => result.current.handleSubmit(onValid)(submitEvent()));
    expect(onValid).not.toHaveBeenCalled();
    expect(result.current.errors).toEqual({ email: 'Email is required', password: 'Too short' });
  });

  it('re-checks a field with a shown error on change, and submits valid values', async () => {
    const onValid = vi.fn();
    const { result } = renderHook(() => useFormFields<Values>({ email: '', password: '', remember: false }, rules));
    await act(() => result.current.handleSubmit(onValid)(submitEvent()));
    act(() => result.current.text('email').onChange(changeEvent('someone@example.com')));
    expect(result.current.errors.email).toBeUndefined();
    expect(result.current.errors.password).toBe('Too short');
    act(() => result.current.text('password').onChange(changeEvent('long enough')));
    await act(() => result.current.handleSubmit(onValid)(submitEvent()));
    expect(onValid).toHaveBeenCalledWith({ email: 'someone@example.com', password: 'long enough', remember: false });
  });

  it('checks only the fields of one step when asked, and leaves the others alone', async () => {
    const onValid = vi.fn();
    const { result } = renderHook(() => useFormFields<Values>({ email: 'a@b.de', password: '', remember: false }, rules));
    await act(() => result.current.handleSubmit(onValid, ['email'])(submitEvent()));
    expect(onValid).toHaveBeenCalledTimes(1);
    expect(result.current.errors).toEqual({});
    await act(() => result.current.handleSubmit(onValid, ['password'])(submitEvent()));
    expect(onValid).toHaveBeenCalledTimes(1);
    expect(result.current.errors).toEqual({ password: 'Too short' });
  });

  it('binds checkboxes to booleans', () => {
    const { result } = renderHook(() => useFormFields<Values>({ email: '', password: '', remember: false }, rules));
    act(() =>
      result.current.checkbox('remember').onChange({ target: { checked: true } } as unknown as Parameters<
        ReturnType<typeof result.current.checkbox>['onChange']
      >[0]),
    );
    expect(result.current.values.remember).toBe(true);
  });
});
