export { loadConfig, withConfig, type Config } from './load-config.ts';
export { VARIABLE_NAMES, variablesSchema } from './variables.ts';
