import { validationSentence } from '@skald/contracts/api';
import type { FormRule as Rule } from 'antd';

/**
 * The form checks the browser makes before a request, in the sentences the server answers for the same
 * rule (@skald/contracts validation-messages.ts), keyed by the field's name in the request: a field says
 * the same thing whichever side caught it.
 */
export function requiredRule(field: string): Rule {
  return { required: true, message: validationSentence({ field, rule: 'required' }) };
}

export const EMAIL_FORMAT_RULE: Rule = { type: 'email', message: validationSentence({ field: 'email', rule: 'format', format: 'email' }) };
