/**
 * Housekeeping across servers (issue 36 item 2): which server ran each once-per-cluster task, and what this server
 * did itself.
 */
package org.agentmemory.api.cluster;
