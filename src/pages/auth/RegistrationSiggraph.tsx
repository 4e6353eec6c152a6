import { RegistrationPage } from './Registration.js';

/** `/registration/siggraph2023`: the registration form, with the visitors of SIGGRAPH 2023 recorded as such. */
export default function RegistrationSiggraph() {
  return <RegistrationPage source="siggraph2023" />;
}
