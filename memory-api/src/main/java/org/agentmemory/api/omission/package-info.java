/**
 * Omission contract (spec §1.3, §6, §7): content that the write path offloads from a turn, such as an
 * oversized tool output, to a content-addressed store, leaving a short preview in the turn.
 *
 * <p>Decisions: content is addressed by {@code om_} + 16 lowercase hex digits of BLAKE2b-64 over its UTF-8
 * bytes (spec §7.1), so identical content in one session is stored once; the id is computed over the
 * NORMALIZED text (offload runs after Stage 0); only the field {@code "output"} of a tool invocation is
 * offloaded in version 1.
 */
package org.agentmemory.api.omission;
