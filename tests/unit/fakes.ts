/** Test doubles shared by the unit tests: an in-memory Storage and JWT-shaped tokens. */

/** A Map-backed implementation of the Web Storage interface. */
export function memoryStorage(initial: Record<string, string> = {}): Storage {
  const data = new Map<string, string>(Object.entries(initial));
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (index) => [...data.keys()][index] ?? null,
    removeItem: (key) => void data.delete(key),
    setItem: (key, value) => void data.set(key, String(value)),
  };
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A token jwt-decode can read: header.payload.signature with `exp` in seconds. */
export function jwt(expSeconds: number, extra: Record<string, unknown> = {}): string {
  return `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ exp: expSeconds, ...extra })}.not-a-real-signature`;
}
