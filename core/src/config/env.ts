import type { z } from 'zod';
import { fail, ok } from '../result.ts';
import type { DomainError, Result } from '../result.ts';

/**
 * Parsing of a service's environment, shared by the oracle and the workers: empty strings count
 * as unset, and every problem is reported with the variable's name and, unless it names a secret,
 * the value that was given.
 */

/** Every problem of the environment, one line each (`problems`), and all of them in `message`. */
export interface ConfigError extends DomainError<'CONFIG_INVALID'> {
  problems: string[];
}

export type EnvResult<T> = Result<T, ConfigError>;

/** Names whose values may hold a secret (a key reference such as PLATFORM_SIGNER may carry a pin-value). */
const SECRET_NAME = /SECRET|KEY|TOKEN|PASSWORD|SIGNER/;

export function parseEnv<S extends z.ZodType>(schema: S, env: Readonly<Record<string, string | undefined>>): EnvResult<z.output<S>> {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = schema.safeParse(present);
  if (parsed.success) return ok(parsed.data);
  const problems = parsed.error.issues.map((issue) => {
    const key = issue.path.join('.') || '(environment)';
    const given = typeof issue.path[0] === 'string' ? present[issue.path[0]] : undefined;
    const shown = given === undefined ? '' : SECRET_NAME.test(key) ? ' (value hidden)' : ` (got ${JSON.stringify(given)})`;
    return `${key}: ${issue.message}${shown}`;
  });
  return fail({ code: 'CONFIG_INVALID', message: problems.join('; '), problems });
}
