/**
 * The omission store (spec §6, §7): content addressing (BLAKE2b-64 {@code om_} ids), previews, and the JPA
 * store with its per-turn index, TTL and purge.
 *
 * <p>Decisions: the scope is the conversation row (the spec's colon-joined session key could collide for
 * ids containing ':'); writes happen under the conversation's row lock, which makes {@code put} idempotent
 * under concurrency without a retry loop; expired content is invisible at once and deleted later by a timer;
 * {@code probe} never loads content and never answers "unknown".
 */
package org.agentmemory.omission.control;
