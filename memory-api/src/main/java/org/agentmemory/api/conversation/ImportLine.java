package org.agentmemory.api.conversation;

import java.io.Serializable;

/**
 * One line of a JSONL import or export: a turn and the conversation it belongs to.
 *
 * @param lineNumber 1-based line number in the source (for error reports); 0 when not from a file
 * @param key        the conversation key; the tenant is always the caller's
 * @param turn       the turn
 */
public record ImportLine(long lineNumber, ConversationKey key, TurnRecord turn) implements Serializable {}
