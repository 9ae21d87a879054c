package org.agentmemory.compaction.control;

/**
 * One invocation rendered through its prune policy (spec §8.4).
 *
 * @param line     the activity line
 * @param omission the new omission the line refers to, or {@code null} when the output was already
 *                 offloaded or empty
 * @param notice   whether the line carries a {@code <tool-output-omitted/>} notice
 */
record PrunedLine(String line, PendingOmission omission, boolean notice) {}
