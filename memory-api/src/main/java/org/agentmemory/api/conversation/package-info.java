/**
 * Conversation memory contract: histories keyed by (tenant, chatbot, user, session), turns, tool
 * invocations and token counts (spec §1, §3, §11).
 *
 * <p>Decisions: order is the per-conversation sequence number assigned at write time, never a timestamp;
 * ids round-trip exactly (no trimming or normalization) and are limited to 128 code points; listings are
 * keyset-paged so equal timestamps never cause gaps or repeats; the service computes token counts and
 * ignores any count a client sends.
 */
package org.agentmemory.api.conversation;
