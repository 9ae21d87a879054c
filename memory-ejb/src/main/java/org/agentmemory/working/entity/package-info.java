/**
 * Working memory's rows (issue 35 item 1): {@link org.agentmemory.working.entity.WorkingItem}, one per item, indexed
 * for full-text search of its content with tenant, agent, session and tier as filters; and
 * {@link org.agentmemory.working.entity.WorkingSession}, one per (tenant, agent, session), which holds the context
 * stack and the next item position, and whose row lock serializes the session's writes (decision 0015).
 */
package org.agentmemory.working.entity;
