/** Brain pages (issue 33): durable knowledge per agent and per organisation, with evidence and history. */
package org.agentmemory.api.brain;
