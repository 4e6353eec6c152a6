import type { FastifyRequest } from 'fastify';
import { USER_FILTER_PARAMS } from '../../../contract/users.js';
import { AppError } from '../../errors.js';

/**
 * For routes declared with `attachValidation`: a query the schema refused because of a filter answers
 * 400 USER_FILTER_INVALID (the admin learns which values the filters take); any other refusal is
 * rethrown as it was (400 VALIDATION_FAILED).
 */
export function refuseInvalidQuery(request: FastifyRequest): void {
  const error = request.validationError;
  if (!error) return;
  const issues: { instancePath: string }[] = error.validation ?? [];
  const paths = issues.map((issue) => issue.instancePath.replace(/^\//, '').split('/')[0] ?? '');
  if (paths.length > 0 && paths.every((path) => (USER_FILTER_PARAMS as string[]).includes(path))) throw new AppError('USER_FILTER_INVALID', 400, { cause: error });
  throw error;
}
