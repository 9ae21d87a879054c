/**
 * Benchmark programs: each main class builds its own data, measures in process after a warm-up and prints a
 * report table. Benchmarks are never timed assertions in tests.
 *
 * <p>Decisions: percentiles over per-call wall times ({@link java.lang.System#nanoTime()}); baselines run in
 * the same JVM over the same inputs and count tokens with the same counter, so the numbers compare work, not
 * tokenizers.
 */
package org.agentmemory.bench;
