// The locale rules of the address are the contract's: the server names a screen's chunks by them too.
export * from '../../contract/locale.js';
