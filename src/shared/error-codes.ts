import { MSG } from './messages';
import { CLAIM_MSG } from './claims';
import { DISCORD_MSG } from './discord';

/**
 * Every message the API answers word for word, by a stable machine code: the key of the message
 * (`usernameTaken`), or `claim.` / `discord.` and the key for those features' own messages. The
 * web app shows its translation of a code it knows, else the English text the API sent.
 */
export const ERROR_MESSAGES: Readonly<Record<string, string>> = {
  ...MSG,
  ...Object.fromEntries(Object.entries(CLAIM_MSG).map(([key, text]) => [`claim.${key}`, text])),
  ...Object.fromEntries(Object.entries(DISCORD_MSG).map(([key, text]) => [`discord.${key}`, text])),
};

const byText = new Map<string, string>();
for (const [code, text] of Object.entries(ERROR_MESSAGES)) if (!byText.has(text)) byText.set(text, code);

/** What a message with its own wording (a field named in it, a list of choices) is coded as, by status. */
const BY_STATUS: Record<number, string> = {
  400: 'invalid_input',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'too_large',
  415: 'unsupported_media',
  429: 'too_many',
  503: 'unavailable',
};

/** The code of a message the API sends word for word (an error or a notice), or undefined. */
export function messageCode(message: string): string | undefined {
  return byText.get(message);
}

/** Messages the API sends with something after them (a wait: "… vote again in 3 h 5 min."). */
const OPEN_ENDED = ['dailyVoteTooSoon'] as const;

/** A message that starts with one of the open-ended ones: its code and what follows it. */
export function openEndedMessage(message: string): { code: string; rest: string } | undefined {
  for (const code of OPEN_ENDED) {
    const start = ERROR_MESSAGES[code];
    if (start && message.startsWith(`${start} `)) return { code, rest: message.slice(start.length + 1) };
  }
  return undefined;
}

/** The machine code of an error answer: its message's code, else one for its status. */
export function errorCode(message: string, status: number): string {
  return byText.get(message) ?? BY_STATUS[status] ?? (status >= 500 ? 'server_error' : 'client_error');
}
