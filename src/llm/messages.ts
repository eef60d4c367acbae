/** What every wire protocol sends of a conversation. */
import type { ChatMessage } from "./provider.js";

/**
 * The conversation as sent: no empty assistant turn (Anthropic refuses one; it carries
 * nothing for any model), and turns of the same role that this leaves adjacent merged.
 */
export function wireMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.role === "assistant" && m.content.trim() === "") continue;
    const last = out.at(-1);
    if (last && last.role === m.role) last.content = `${last.content}\n\n${m.content}`;
    else out.push({ ...m });
  }
  return out;
}
