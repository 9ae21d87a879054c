/** The audit trail of security-relevant operations (issue 32 item 5). */
package org.agentmemory.api.audit;
