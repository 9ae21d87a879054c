/**
 * Conversation control: the pure computations of the write path, everything decided before a turn
 * touches the database (spec §1.1, §2, §3, §6): building a turn from an assistant message, Stage 0
 * normalization, Stage 0.5 token counting and the write-time offload of oversized tool outputs.
 *
 * <p>Decisions: plain classes with static functions, no container types, so they are unit-tested in
 * milliseconds; records in, new records out, inputs never modified (the Python system mutates the caller's
 * turn when normalization is off; here nothing is ever mutated); a client's token count is never trusted, the
 * turn is always recounted; offloaded contents are returned as {@link org.agentmemory.api.omission.Omission}s
 * for the caller to store in the same transaction, one per distinct content id. Where the spec's literal
 * normalization is not idempotent, {@link org.agentmemory.conversation.control.Normalizer} repairs it and
 * says how.
 */
package org.agentmemory.conversation.control;
