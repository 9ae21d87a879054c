/** The audit trail (issue 32 item 5): appending events, aggregating failed authentications, retention, paging. */
package org.agentmemory.audit.boundary;
