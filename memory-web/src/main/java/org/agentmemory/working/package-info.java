/**
 * Working memory over REST (issue 35 item 1): an agent's items and context stack for one session, in the caller's
 * tenant. Thin: the bean checks and does the work.
 */
package org.agentmemory.working;
