/** The script-tag entry: the IIFE build sets window.InpageAgent to these names. */
export * from './index';
