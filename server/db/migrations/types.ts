import type { ColumnDataType } from 'kysely';
import type { Dialect } from '../index.js';

export function timestampType(dialect: Dialect): ColumnDataType {
  return dialect === 'postgres' ? 'timestamptz' : 'text';
}
