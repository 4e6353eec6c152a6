import { useMemo } from 'react';
import { COUNTRY_CODES } from '../../contract/countries.js';

/**
 * The country options, named in the reader's language and sorted by name. Naming some 250 regions takes
 * a noticeable moment on a slow phone, so until the list is wanted (`all`) only the chosen one is there.
 */
export function useCountryOptions(language: string, all: boolean, selected: string) {
  const full = useMemo(() => {
    if (!all) return null;
    const names = new Intl.DisplayNames([language], { type: 'region' });
    const collator = new Intl.Collator(language);
    return COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code }))
      .sort((a, b) => collator.compare(a.name, b.name))
      .map(({ code, name }) => (
        <option key={code} value={code}>
          {name}
        </option>
      ));
  }, [language, all]);
  // The same list while nothing it shows changed, so a form's memoized fields can skip a render.
  const chosen = useMemo(
    () =>
      selected
        ? [
            <option key={selected} value={selected}>
              {new Intl.DisplayNames([language], { type: 'region' }).of(selected) ?? selected}
            </option>,
          ]
        : [],
    [language, selected],
  );
  return full ?? chosen;
}
