/**
 * Benchmarks: programs that print a report, never timed assertions in tests.
 *
 * <p>Decisions: each benchmark measures its subject next to a baseline in the same run (for example
 * normalization + counting next to raw jtokkit counting of the same text), because absolute numbers move
 * with the machine's load and only same-run ratios compare; corpora are generated from a fixed seed so runs
 * are repeatable; results are kept alive in a printed checksum so the JIT cannot drop the work.
 */
package org.agentmemory.bench;
