/**
 * Benchmarks: programs that print a report, never timed assertions in tests.
 *
 * <p>Decisions: each benchmark measures its subject next to a baseline in the same run and the same JVM
 * over the same inputs (normalization + counting next to raw jtokkit counting; compaction next to
 * LangChain4j's token window), because absolute numbers move with the machine's load and only same-run
 * ratios compare; corpora come from a fixed seed; percentiles are over per-call wall times
 * ({@link java.lang.System#nanoTime()}), and throughputs over the median time of whole passes; results feed a printed checksum so the JIT cannot drop the work.
 */
package org.agentmemory.bench;
