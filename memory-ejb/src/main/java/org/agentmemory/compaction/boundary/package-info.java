/**
 * Compaction's container side: what reacts to compaction events inside the server, such as the Stage-2 counter, and
 * the Stage 2 summarizer (issue 35 item 4): its configuration, the chat-model call under Fault Tolerance, and the
 * split of many dropped turns into calls.
 *
 * <p>Decisions: the Stage-2 event is fired at write time, when the commit that flips the persisted flag is
 * folded in under the conversation's row lock (spec §5.4 step 9), so "once per conversation" is guaranteed by
 * the database rather than by memory; observers run after the commit, so a rolled-back write is never
 * counted; the counter is Micrometer's, because WildFly 39 exposes application meters through its Micrometer
 * subsystem (there is no MicroProfile Metrics). The summary model is called with the same client and policies as
 * reflection, with the extractive summarizer as its fallback, so a summary is always written (decision 0017).
 */
package org.agentmemory.compaction.boundary;
