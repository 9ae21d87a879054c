/**
 * Working memory (issue 35 item 1, seed 003): {@link org.agentmemory.working.boundary.WorkingMemoryBean} behind the
 * local and remote views checks every input and runs the store ({@link org.agentmemory.working.boundary.WorkingStore})
 * and the search ({@link org.agentmemory.working.boundary.WorkingSearch}) over the rules of
 * {@code working.control}, one transaction per call, with the configuration of
 * {@link org.agentmemory.working.boundary.WorkingMemoryConfig}.
 *
 * <p>Decision (0015): writes of one session are serialized by a lock on the session's header row
 * ({@code SELECT … FOR UPDATE}), taken first by every write; the header is created by a transaction of its own
 * ({@link org.agentmemory.working.boundary.WorkingSessionOpenerBean}), so two first writers of a session meet on its
 * unique key instead of both inserting.
 */
package org.agentmemory.working.boundary;
