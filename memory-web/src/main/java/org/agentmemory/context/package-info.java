/**
 * REST resources of the read path (spec §5.4, §7.4, §8, §9): a conversation's history compacted into a model's
 * budget, the recovery tool {@code read_omitted_content}, and the long-term context assembly, by conversation
 * key ({@code /context}) or id ({@code /conversations/{id}/context}, {@code /conversations/{id}/omitted}).
 * Each resource validates, converts and delegates to {@link org.agentmemory.api.context.ContextMemory}.
 *
 * <p>Decisions: the conversation-scoped resources have their own, more specific root paths (not methods of
 * the conversations resource), so standard JAX-RS matching picks them on every server; no budget is an
 * error (zero messages and a note instead); the recovery endpoint answers the tool's exact text with 200,
 * since that text is meant for the model.
 */
package org.agentmemory.context;
