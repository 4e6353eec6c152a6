import { useCallback, useRef, useState, type ChangeEvent, type FormEvent } from 'react';

/** A rule returns the translated message when the value is wrong, or null. */
export type FieldRules<V> = { [K in keyof V]?: (value: V[K], values: V) => string | null };
export type FieldErrors<V> = Partial<Record<keyof V, string>>;

export function validateFields<V extends object>(values: V, rules: FieldRules<V>): FieldErrors<V> {
  const errors: FieldErrors<V> = {};
  for (const name of Object.keys(rules) as (keyof V)[]) {
    const message = rules[name]?.(values[name], values);
    if (message) errors[name] = message;
  }
  return errors;
}

/**
 * Form state for the small public forms (sign-in, registration steps, password reset), which must stay
 * inside the 160 KB sign-in budget that a form library would break. Validates on submit, then re-checks a
 * field on every change once it has shown an error; focuses the first invalid field.
 */
export function useFormFields<V extends object>(initial: V, rules: FieldRules<V>) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  const inputs = useRef(new Map<keyof V, HTMLInputElement | null>());

  const setValue = useCallback(
    <K extends keyof V>(name: K, value: V[K]) => {
      setValues((current) => {
        const next = { ...current, [name]: value };
        setErrors((shown) => {
          if (!(name in shown)) return shown;
          const message = rules[name]?.(value, next);
          const { [name]: _removed, ...rest } = shown;
          return (message ? { ...rest, [name]: message } : rest) as FieldErrors<V>;
        });
        return next;
      });
    },
    [rules],
  );

  /** Props for a text input bound to `name`. */
  const text = <K extends keyof V>(name: K) => ({
    name: String(name),
    value: values[name] as unknown as string,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValue(name, event.target.value as V[K]),
    errorText: errors[name],
    inputRef: (element: HTMLInputElement | null) => {
      inputs.current.set(name, element);
    },
  });

  /** Props for a checkbox bound to `name`. */
  const checkbox = <K extends keyof V>(name: K) => ({
    name: String(name),
    checked: Boolean(values[name]),
    onChange: (event: ChangeEvent<HTMLInputElement>) => setValue(name, event.target.checked as V[K]),
    inputRef: (element: HTMLInputElement | null) => {
      inputs.current.set(name, element);
    },
  });

  /**
   * Shows `message` under `name` and focuses the field: what is found after the rules ran (a check that
   * takes a moment, such as a common password). The next change of the field checks it by its rule again.
   */
  const setError = useCallback(<K extends keyof V>(name: K, message: string) => {
    setErrors((shown) => ({ ...shown, [name]: message }));
    inputs.current.get(name)?.focus();
  }, []);

  /**
   * Validates, then calls `onValid`. With `only`, just those fields are checked (one step of a form
   * in steps); errors shown on the other fields stay as they are.
   */
  const handleSubmit = (onValid: (values: V) => void | Promise<void>, only?: readonly (keyof V)[]) => async (event: FormEvent) => {
    event.preventDefault();
    const checked = only ? (Object.fromEntries(only.filter((name) => rules[name]).map((name) => [name, rules[name]])) as FieldRules<V>) : rules;
    const found = validateFields(values, checked);
    setErrors((shown) => {
      if (!only) return found;
      const kept = { ...shown };
      for (const name of only) delete kept[name];
      return { ...kept, ...found };
    });
    const firstInvalid = (Object.keys(checked) as (keyof V)[]).find((name) => found[name]);
    if (firstInvalid !== undefined) {
      inputs.current.get(firstInvalid)?.focus();
      return;
    }
    await onValid(values);
  };

  return { values, errors, setValue, setError, text, checkbox, handleSubmit };
}
