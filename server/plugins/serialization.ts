import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/**
 * Responses are written by fast-json-stringify from the JSON Schema of each route's zod response schema:
 * only the fields the schema names leave the server, without re-validating every response with zod
 * (which cost about 14% of a signed-in request). Handlers are held to the schema by the type provider
 * at compile time; the API tests compare responses with the contract.
 */
export const zodResponseSerializer: FastifySerializerCompiler<z.ZodType> = ({ schema }) => {
  const jsonSchema = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' });
  return fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
};
