import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type {
  IAddressResponse,
  IBusinessResponse,
  ICustomerResponse,
  IDiscountResponse,
  IPriceResponse,
  IProductResponse,
} from '@paddle/paddle-node-sdk';
import { seedCatalogue } from './catalogue.js';

/** What the Paddle stand-in holds, like Paddle's account data: catalogue, customers and their details. */
export interface SandboxData {
  products: IProductResponse[];
  prices: IPriceResponse[];
  discounts: IDiscountResponse[];
  customers: ICustomerResponse[];
  addresses: IAddressResponse[];
  businesses: IBusinessResponse[];
}

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A Paddle-shaped id: the entity prefix, then 26 lowercase letters and digits. */
export function paddleId(prefix: string): string {
  const bytes = randomBytes(26);
  return `${prefix}_01${[...bytes.subarray(0, 24)].map((b) => ALPHABET[b % ALPHABET.length]).join('')}`;
}

/**
 * The stand-in's data, kept in memory and, when given a file, written back after every change, so a
 * development portal keeps its customers across restarts as Paddle would. Tests use memory only.
 */
export class SandboxState {
  readonly data: SandboxData;

  constructor(private readonly file: string | null) {
    const stored = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SandboxData) : null;
    this.data = stored ?? { ...seedCatalogue(), customers: [], addresses: [], businesses: [] };
  }

  save(): void {
    if (!this.file) return;
    mkdirSync(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.data));
    renameSync(temporary, this.file);
  }
}
