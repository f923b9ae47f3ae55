/** Token estimates with a real BPE tokenizer (o200k_base, the encoding of current OpenAI models). */
import { countTokens as bpeCount } from 'gpt-tokenizer';

export function countTokens(text: string): number {
  return text.length === 0 ? 0 : bpeCount(text);
}
