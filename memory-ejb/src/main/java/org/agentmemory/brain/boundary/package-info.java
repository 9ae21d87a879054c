/** Brain pages' session beans (issue 33): writes merged into pages, reads as of a time, search, packed knowledge. */
package org.agentmemory.brain.boundary;
